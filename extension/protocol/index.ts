// The typed host ↔ webview protocol. It imports zod only, so both the extension host and the
// webview bundle can share it without pulling in either side's code.
export * from './model';
export * from './spend';
export * from './plan';
export * from './plan-grant';
export * from './research';
export * from './rewind';
export * from './mcp';
export * from './hooks';
export * from './memory';
export * from './events';
export * from './messages';
export * from './composing';
export * from './handlers';
export * from './reducer';
export * from './usage';
export * from './project-context';
export * from './references';
export * from './images';
export * from './context-usage';
export * from './goal';
export * from './usage-sources';
export * from './usage-report';
export * from './report-blocks';
export * from './mermaid-source';
export * from './mermaid-svg';
