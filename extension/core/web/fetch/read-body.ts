// Reads a response body into memory under a byte cap, decompressing gzip, deflate and brotli. The
// cap applies to the bytes after decompression too, so a small compressed bomb is stopped as early
// as a large page.
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import { formatBytes } from '../../tools/util/cap';
import { FetchError } from './fetch-error';
import type { PinnedResponse } from './pinned-request';

/** 10 MB, 11.5 MB, 900 KB: whole megabytes without a decimal. */
function size(n: number): string {
  return n >= 1024 * 1024 && n % (1024 * 1024) === 0 ? `${n / (1024 * 1024)} MB` : formatBytes(n);
}

function tooLarge(url: URL, max: number, declared?: number): FetchError {
  const what = declared === undefined ? `larger than ${size(max)}` : size(declared);
  return new FetchError(
    'too_large',
    `${url.href} is ${what}; web_fetch reads at most ${size(max)} per page. Look for a smaller page ` +
      '(a summary, an abstract, a single chapter) or a text version.',
  );
}

function decoder(encoding: string | undefined): Transform | undefined {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      return undefined;
  }
}

export async function readBody(res: PinnedResponse, url: URL, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    res.body.destroy();
    throw tooLarge(url, maxBytes, declared);
  }
  const unzip = decoder(res.headers['content-encoding']);
  const stream: Readable = unzip ? res.body.pipe(unzip) : res.body;
  const chunks: Buffer[] = [];
  let size = 0;
  const stop = () => {
    res.body.destroy();
    unzip?.destroy();
  };
  return new Promise<Buffer>((resolve, reject) => {
    const onAbort = () => {
      stop();
      reject(new FetchError('aborted', 'The fetch was stopped.'));
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    const fail = (err: FetchError) => {
      signal.removeEventListener('abort', onAbort);
      stop();
      reject(err);
    };
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) return fail(tooLarge(url, maxBytes));
      chunks.push(chunk);
    });
    stream.on('end', () => {
      signal.removeEventListener('abort', onAbort);
      resolve(Buffer.concat(chunks));
    });
    const onError = (err: Error) => {
      if (signal.aborted) return;
      fail(new FetchError('network', `Reading ${url.href} failed: ${err.message}`));
    };
    stream.on('error', onError);
    if (unzip) res.body.on('error', onError);
  });
}
