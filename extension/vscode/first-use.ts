// A window's first message, made quick: the pieces the runtime composes for it. The code V8 compiled for
// the first request is kept for the next window (platform/code-cache.ts: runtime.js and the SDK bundles,
// through the caches runtime-host.ts made), the first request is timed step by step (first-send-clock.ts),
// and what the first Send needs is done while the user reads and types (first-request-warm-up.ts).
import type { Logger } from '../core/ports';
import type { BundleCodeCaches } from '../platform/code-cache';
import { FirstSendClock } from './first-send-clock';
import { RequestWarmUp } from './first-request-warm-up';

/**
 * The clock of the window's first request, whose end writes the code caches (runtime.js's and the SDK
 * bundles', loaded through the same caches); without caches the SDK bundles are plainly required.
 */
export function firstUseClock(log: Logger, codeCaches: BundleCodeCaches | undefined) {
  const clock = new FirstSendClock(log, () => setImmediate(() => codeCaches?.keep()));
  return { clock, requireBundle: codeCaches && ((file: string) => codeCaches.require(file)) };
}

/**
 * The warm-up of a window's first request: the model's client, connection and request path, and, read-only,
 * what a Send reads first — other windows' journals and whether one of them runs the sidebar's chat (sql.js
 * compiles a query's code on its first run), and the project's rules and skills.
 */
export function windowWarmUp(
  providers: { warm: ConstructorParameters<typeof RequestWarmUp>[0]['warmModel'] },
  store: { runningElsewhere(sessionId: string): boolean },
  project: { load(withSkills: boolean): Promise<unknown> },
  currentSessionId: () => string | undefined,
): RequestWarmUp {
  return new RequestWarmUp({
    warmModel: (model) => providers.warm(model),
    prepare: () => {
      store.runningElsewhere(currentSessionId() ?? '');
      return project.load(true);
    },
  });
}
