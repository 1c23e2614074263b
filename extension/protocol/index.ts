// The typed host ↔ webview protocol. Imports zod only (DESIGN §1 rule 1).
export * from './model';
export * from './events';
export * from './messages';
export * from './handlers';
export * from './reducer';
