// Follows redirects by hand, so that every hop goes through the guard again: a public page must not
// be able to bounce the fetch to http://127.0.0.1/ or to a metadata address. At most `max` hops.
import { FetchError } from './fetch-error';
import type { PinnedResponse, RequestOptions, Transport } from './pinned-request';
import type { VettedTarget } from './target-guard';

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export interface FollowOptions extends RequestOptions {
  vet(url: URL): Promise<VettedTarget>;
  transport: Transport;
  maxRedirects: number;
}

export interface Followed {
  response: PinnedResponse;
  finalUrl: URL;
  /** Every URL visited before the final one, in order. */
  hops: string[];
}

export async function followRedirects(start: URL, opts: FollowOptions): Promise<Followed> {
  let url = start;
  const hops: string[] = [];
  for (;;) {
    const target = await opts.vet(url);
    const response = await opts.transport(target, { signal: opts.signal, headers: opts.headers });
    const location = response.headers.location;
    if (!REDIRECTS.has(response.status) || !location) return { response, finalUrl: url, hops };
    response.body.destroy();
    if (hops.length >= opts.maxRedirects)
      throw new FetchError(
        'redirects',
        `${start.href} redirected more than ${opts.maxRedirects} times (last to ${location}); ` +
          'it was not followed further.',
      );
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      throw new FetchError('invalid_url', `${url.href} redirected to "${location}", which is not a URL.`);
    }
    hops.push(url.href);
    url = next;
  }
}
