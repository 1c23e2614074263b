// Retry policy shared by both SDK clients. The SDKs retry 408/409/429/5xx and dropped connections
// (maxRetries 2) and honour `retry-after`; this fetch wrapper stops them from sleeping on a wait
// the user would not sit through (the Anthropic SDK would sleep for days if told to): when the
// server asks for more than MAX_RETRY_WAIT_MS, the response is marked `x-should-retry: false`,
// so the error surfaces at once and says how long the server wants us to wait.
import { retryAfterMs } from './errors';
import { markFirstRequest } from '../util/first-request-trace';

export const SDK_MAX_RETRIES = 2;
export const MAX_RETRY_WAIT_MS = 60_000;

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export function boundedRetryFetch(
  inner: FetchLike = (input, init) => fetch(input, init),
  maxWaitMs = MAX_RETRY_WAIT_MS,
): FetchLike {
  return async (input, init) => {
    markFirstRequest('SDK request built');
    const res = await inner(input, init);
    if (res.status !== 429 && res.status < 500) return res;
    const wait = retryAfterMs(res.headers);
    if (wait === undefined || wait <= maxWaitMs) return res;
    const headers = new Headers(res.headers);
    headers.set('x-should-retry', 'false');
    return new Response(res.body, { status: res.status, statusText: res.statusText, headers });
  };
}
