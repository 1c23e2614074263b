// When a model call just dispatched is on its connection: the next request Node's HTTP client (undici,
// under fetch and so under every provider SDK) finishes writing, as its `undici:request:bodySent`
// diagnostics channel says — or `capMs` at most, for a call that writes nothing through undici (the
// editor's own models) or fails first. The request's start is recorded then (core/agent/request-start.ts):
// recorded earlier, that bookkeeping runs while a fresh connection is being opened and the request
// waits for it. Another request finishing first only brings the record forward, as before this existed.
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { markFirstRequest } from '../../core/util/first-request-trace';

const BODY_SENT = 'undici:request:bodySent';
/** Long enough for a local or warm connection; on a slower one the record is made while it opens. */
const CAP_MS = 50;

export function whenRequestWritten(done: () => void, capMs = CAP_MS): void {
  let called = false;
  const finish = () => {
    if (called) return;
    called = true;
    markFirstRequest('written');
    unsubscribe(BODY_SENT, finish);
    clearTimeout(timer);
    // After the write's own turn of the event loop, so the bytes leave before the bookkeeping starts.
    setImmediate(done);
  };
  subscribe(BODY_SENT, finish);
  const timer = setTimeout(finish, capMs);
}
