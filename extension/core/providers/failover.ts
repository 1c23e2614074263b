// Failover to the configured fallback model (sextant.fallbackModel) for the rest of one turn. The
// primary is used until it fails before showing anything — a rate limit, a server error, an
// unreachable server, or its circuit breaker open — and then the fallback answers that call and every
// later call of the turn. The switch is never silent: the stream says so with a `failover` event
// (the chat shows "X failed (reason); answered by fallback Y") and carries the fallback's price.
//
// A failure after the first token (text, thinking or a tool call already shown) does not fail over:
// the fallback would start the answer again and repeat what the user has read, or continue a sentence
// it did not begin. The partial answer stays and the turn ends with the error (Retry is offered).
// A refused key or a rejected request is not failed over either: it needs the user, not another model.
// The fallback is resolved only when needed, through the registry, so a stored key still goes only to
// the server it was bound to (key-binding.ts) and its own rate limit and breaker apply.
import { isProviderError } from './errors';
import { ProviderError, type Provider, type ProviderConfig, type ProviderErrorCode, type ProviderEvent } from './types';
import { errorText } from '../util/error-text';

export interface ModelTarget {
  provider: Provider;
  model: string;
  config: ProviderConfig;
}

export interface FailoverOptions {
  /** The fallback as a model reference (`provider/model` or a provider name). */
  fallbackRef: string;
  resolve(ref: string): Promise<ModelTarget>;
}

const FAILOVER_CODES: ReadonlySet<ProviderErrorCode> = new Set(['rate_limit', 'server', 'unreachable']);
const REASON_CHARS = 300;

function refOf(t: ModelTarget): string {
  return `${t.config.name}/${t.model}`;
}

function messageOf(err: unknown): string {
  return errorText(err);
}

function producesOutput(ev: ProviderEvent): boolean {
  return ev.type === 'text' || ev.type === 'thinking' || ev.type === 'tool_call';
}

/** The sentence the chat shows when the fallback takes over. */
export function failoverText(from: string, to: string, reason: string): string {
  return `${from} failed (${reason.trim().replace(/\.$/, '')}); answered by fallback ${to}.`;
}

/** The primary target, with a provider that fails over to the fallback for the rest of the turn. */
export function withFailover(primary: ModelTarget, opts: FailoverOptions): ModelTarget {
  let active: ModelTarget | undefined;

  async function* stream(
    request: Parameters<Provider['stream']>[0],
    signal: AbortSignal,
  ): AsyncGenerator<ProviderEvent> {
    if (active) {
      yield* active.provider.stream({ ...request, model: active.model }, signal);
      return;
    }
    let shown = false;
    let primaryError: ProviderError;
    try {
      for await (const ev of primary.provider.stream(request, signal)) {
        if (producesOutput(ev)) shown = true;
        yield ev;
      }
      return;
    } catch (err) {
      if (signal.aborted || shown || !isProviderError(err) || err.afterFirstToken || !FAILOVER_CODES.has(err.code))
        throw err;
      primaryError = err;
    }
    const from = refOf(primary);
    let fallback: ModelTarget;
    try {
      fallback = await opts.resolve(opts.fallbackRef);
    } catch (err) {
      throw new ProviderError(
        primaryError.code,
        `${primaryError.message} The fallback model ${opts.fallbackRef} could not be used: ${messageOf(err)}`,
        primaryError.status,
      );
    }
    const to = refOf(fallback);
    if (to === from) throw primaryError;
    const reason = primaryError.message.slice(0, REASON_CHARS);
    let shownByFallback = false;
    try {
      const events = fallback.provider.stream({ ...request, model: fallback.model }, signal);
      let announced = false;
      for await (const ev of events) {
        // Announced with the fallback's first event, so a fallback that fails at once is not reported as answering.
        if (!announced) {
          announced = true;
          active = fallback;
          yield { type: 'failover', from, to, reason, price: fallback.config.price };
        }
        if (producesOutput(ev)) shownByFallback = true;
        yield ev;
      }
    } catch (err) {
      if (signal.aborted || shownByFallback || !isProviderError(err)) throw err;
      throw new ProviderError(
        err.code,
        `${from} failed (${reason}); the fallback ${to} failed too: ${err.message}`,
        err.status,
        err.afterFirstToken,
        err.retryAfterMs,
      );
    }
  }

  return { ...primary, provider: { name: primary.provider.name, kind: primary.provider.kind, stream } };
}
