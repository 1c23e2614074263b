// The host's handler table is a mapped type over the inbound union: adding a message type
// without a handler is a compile error, and each handler receives exactly its message.
import type { ErrorInfo } from './model';
import { InboundSchema, type Inbound, type InboundType } from './messages';

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
