// One model request's own abort signal, following the turn's. The SDKs add an abort listener to the
// signal they are given for every request and never take it off; a turn passes one signal to all its
// model calls, so over a long agent run those listeners (each holding its request's controller) piled
// up — Node warned after 10. Each request gets a child signal instead, detached when it ends.
export function requestSignal(outer: AbortSignal): { signal: AbortSignal; release(): void } {
  const child = new AbortController();
  if (outer.aborted) {
    child.abort(outer.reason);
    return { signal: child.signal, release: () => undefined };
  }
  const follow = () => child.abort(outer.reason);
  outer.addEventListener('abort', follow, { once: true });
  return { signal: child.signal, release: () => outer.removeEventListener('abort', follow) };
}

/** `streamOnce` run on a request signal of its own (above), detached when the stream ends however it ends. */
export function onRequestSignal<R, E>(
  streamOnce: (request: R, signal: AbortSignal) => AsyncGenerator<E>,
): (request: R, outer: AbortSignal) => AsyncGenerator<E> {
  return async function* (request, outer) {
    const { signal, release } = requestSignal(outer);
    try {
      yield* streamOnce(request, signal);
    } finally {
      release();
    }
  };
}
