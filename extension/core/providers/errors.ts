// Turns whatever an SDK or the network throws into a ProviderError with a message written for the
// user, who must be able to act on it: no key, key refused, rate limit, server error, or an
// unreachable endpoint (named, so a typo in a base URL shows).
// Both SDKs share the same error hierarchy shape; each provider passes its own classes in, so this
// file never value-imports an SDK (it is also bundled into code that must stay SDK-free).
import { ProviderError } from './types';
import { errorText } from '../util/error-text';

/** The error classes of one SDK (openai and @anthropic-ai/sdk export the same names). */
export interface SdkErrorClasses {
  APIError: abstract new (...args: never[]) => Error;
  APIUserAbortError: abstract new (...args: never[]) => Error;
  APIConnectionError: abstract new (...args: never[]) => Error;
  APIConnectionTimeoutError: abstract new (...args: never[]) => Error;
}

export interface ErrorContext {
  providerName: string;
  baseUrl: string;
  /** Env var that can hold the key, for the hint in an auth message. */
  apiKeyEnv?: string;
  signal: AbortSignal;
  /** True when text (or thinking, or a tool call) had already been emitted. */
  afterFirstToken: boolean;
}

const NETWORK_CODES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'DNS lookup failed',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  ETIMEDOUT: 'timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CONNECT_TIMEOUT: 'connect timed out',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed TLS certificate',
};

/** Walks `cause` chains (fetch wraps the socket error twice) for a Node/undici error code. */
export function networkCode(err: unknown): string | undefined {
  let cur: unknown = err;
  for (let depth = 0; depth < 6 && cur && typeof cur === 'object'; depth++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && code in NETWORK_CODES) return code;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function isNetworkFailure(err: unknown): boolean {
  if (networkCode(err)) return true;
  // undici reports a body cut off mid-stream as `TypeError: terminated`.
  return err instanceof TypeError && /terminated|fetch failed|network|socket/i.test(err.message);
}

function headerOf(headers: unknown, name: string): string | undefined {
  if (headers && typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  return undefined;
}

/** Milliseconds from `retry-after-ms` or `retry-after` (seconds or an HTTP date). */
export function retryAfterMs(headers: unknown, now = Date.now()): number | undefined {
  const ms = Number.parseFloat(headerOf(headers, 'retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const raw = headerOf(headers, 'retry-after');
  if (!raw) return undefined;
  const seconds = Number.parseFloat(raw);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(raw);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}

/** The API's own explanation, from `{error: {message}}` bodies (both APIs use that shape). */
function apiMessage(err: unknown): string | undefined {
  const body = (err as { error?: unknown }).error;
  const inner = body && typeof body === 'object' ? ((body as { error?: unknown }).error ?? body) : undefined;
  const msg = inner && typeof inner === 'object' ? (inner as { message?: unknown }).message : undefined;
  return typeof msg === 'string' && msg.trim() ? msg.trim().slice(0, 300) : undefined;
}

function describeNetwork(err: unknown): string {
  const code = networkCode(err);
  if (code) return NETWORK_CODES[code] ?? code;
  // Otherwise the innermost cause says most (e.g. undici's "bad port").
  let cur: unknown = err;
  let innermost: string | undefined;
  for (let depth = 0; depth < 6 && cur instanceof Error; depth++) {
    if (cur.message) innermost = cur.message;
    cur = (cur as { cause?: unknown }).cause;
  }
  return innermost && !/^(Connection error\.?|fetch failed)$/i.test(innermost)
    ? `the connection failed (${innermost.slice(0, 120)})`
    : 'the connection failed';
}

export function abortedError(ctx: Pick<ErrorContext, 'providerName' | 'afterFirstToken'>): ProviderError {
  return new ProviderError(
    'aborted',
    `The request to ${ctx.providerName} was stopped.`,
    undefined,
    ctx.afterFirstToken,
  );
}

/** A stream that ended without the API's end-of-message marker: the connection was lost. */
export function truncatedError(ctx: ErrorContext): ProviderError {
  return new ProviderError(
    'unreachable',
    `The connection to ${ctx.providerName} (${ctx.baseUrl}) ended before the answer was complete.`,
    undefined,
    ctx.afterFirstToken,
  );
}

export function toProviderError(err: unknown, ctx: ErrorContext, sdk: SdkErrorClasses): ProviderError {
  if (err instanceof ProviderError) return err;
  const { providerName: name, baseUrl, afterFirstToken } = ctx;
  if (
    ctx.signal.aborted ||
    err instanceof sdk.APIUserAbortError ||
    (err instanceof Error && err.name === 'AbortError')
  ) {
    return abortedError(ctx);
  }
  if (err instanceof sdk.APIConnectionTimeoutError) {
    return new ProviderError(
      'unreachable',
      `${name} at ${baseUrl} did not answer in time (timed out).`,
      undefined,
      afterFirstToken,
    );
  }
  if (err instanceof sdk.APIConnectionError || isNetworkFailure(err)) {
    const what = describeNetwork(err);
    const message = afterFirstToken
      ? `The connection to ${name} (${baseUrl}) was lost mid-answer: ${what}.`
      : `Could not reach ${name} at ${baseUrl}: ${what}. Check that the server is running and the base URL is right.`;
    return new ProviderError('unreachable', message, undefined, afterFirstToken);
  }
  if (err instanceof sdk.APIError) {
    const status = (err as { status?: unknown }).status;
    const headers = (err as { headers?: unknown }).headers;
    const detail = apiMessage(err);
    const suffix = detail ? ` ${name} said: ${detail}` : '';
    if (typeof status === 'number') {
      if (status === 401 || status === 403) {
        const env = ctx.apiKeyEnv ? ` or the environment variable ${ctx.apiKeyEnv}` : '';
        return new ProviderError(
          'auth',
          `The API key for ${name} was refused (${status}). Set a valid key with "Sextant: Set API ` +
            `Key"${env}.${suffix}`,
          status,
          afterFirstToken,
        );
      }
      if (status === 429) {
        const wait = retryAfterMs(headers);
        const hint =
          wait !== undefined && wait > 0
            ? ` It asks to wait ${Math.ceil(wait / 1000)} s before retrying.`
            : ' Wait a moment, then retry.';
        return new ProviderError(
          'rate_limit',
          `${name} is rate-limiting requests (429), even after retries.${hint}${suffix}`,
          status,
          afterFirstToken,
          wait,
        );
      }
      if (status >= 500) {
        return new ProviderError(
          'server',
          `${name} had a server error (${status}), even after retries.${suffix}`,
          status,
          afterFirstToken,
        );
      }
      if (status === 404) {
        return new ProviderError(
          'bad_request',
          `${name} answered 404 Not Found: check the model name and the base URL (${baseUrl}).${suffix}`,
          status,
          afterFirstToken,
        );
      }
      return new ProviderError(
        'bad_request',
        `${name} rejected the request (${status}).${suffix}`,
        status,
        afterFirstToken,
      );
    }
    // No status: an error event inside an otherwise healthy stream (e.g. Anthropic `overloaded_error`).
    return new ProviderError(
      'server',
      `${name} reported an error mid-answer: ${detail ?? err.message.slice(0, 300)}`,
      undefined,
      afterFirstToken,
    );
  }
  const text = errorText(err);
  return new ProviderError(
    'server',
    `Unexpected failure talking to ${name}: ${text.slice(0, 300)}`,
    undefined,
    afterFirstToken,
  );
}

/**
 * ProviderError check that also works across bundles: each provider kind is its own esbuild bundle
 * with its own copy of the class, so `instanceof` alone fails for errors thrown there.
 */
export function isProviderError(err: unknown): err is ProviderError {
  return (
    err instanceof ProviderError ||
    (err instanceof Error && err.name === 'ProviderError' && typeof (err as { code?: unknown }).code === 'string')
  );
}
