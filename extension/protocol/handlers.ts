// Both ends dispatch through handler tables typed as mapped types over their message union:
// adding a message type without a handler is a compile error, and each handler receives exactly
// its message. The host handles Inbound, the view handles Outbound.
import type { ErrorInfo } from './model';
import { InboundSchema, type Inbound, type InboundType, type Outbound } from './messages';

export type InboundOf<T extends InboundType> = Extract<Inbound, { type: T }>;

export type InboundHandlers = {
  [T in InboundType]: (message: InboundOf<T>) => void | Promise<void>;
};

export type ParseResult = { ok: true; message: Inbound } | { ok: false; error: ErrorInfo };

/** Validates a raw inbound value; never throws. */
export function parseInbound(raw: unknown): ParseResult {
  const parsed = InboundSchema.safeParse(raw);
  if (parsed.success) return { ok: true, message: parsed.data };
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(message)'}: ${i.message}`)
    .join('; ');
  return {
    ok: false,
    error: { code: 'protocol', message: `Malformed message from the chat view: ${issues}`, recoverable: true },
  };
}

/** Dispatches a validated message to its handler; the cast is sound because T is the message's own type. */
export function dispatchInbound(handlers: InboundHandlers, message: Inbound): void | Promise<void> {
  const handler = handlers[message.type] as (m: Inbound) => void | Promise<void>;
  return handler(message);
}

export type OutboundOf<T extends Outbound['type']> = Extract<Outbound, { type: T }>;

export type OutboundHandlers = {
  [T in Outbound['type']]: (message: OutboundOf<T>) => void;
};

/** The view's dispatch: the cast is sound for the same reason as in `dispatchInbound`. */
export function dispatchOutbound(handlers: OutboundHandlers, message: Outbound): void {
  const handler = handlers[message.type] as (m: Outbound) => void;
  handler(message);
}
