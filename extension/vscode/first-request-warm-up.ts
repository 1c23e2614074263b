// While the user reads the view and types, do what the first request needs, so the first Send goes
// straight to the wire: its model's SDK bundle loaded, its key and the key's bound host read (each a
// round trip to the workbench), its client made (ProviderRegistry.warm), the connection to its server
// open (warm-connection.ts: only to the configured base URL, only when a key for it is at hand), Node's
// HTTP client loaded when there is no such connection to open (warm-http-client.ts, a local throwaway
// server), and the message schema's `send` branch compiled. Best effort: the request meets (and reports)
// any problem itself.
import { warmConnection } from '../platform/net/warm-connection';
import { warmHttpClient } from '../platform/net/warm-http-client';
import { parseInbound } from '../protocol';

export function warmFirstRequest(deps: {
  /** Makes the model's client; answers the URL its requests go to when a key for it is at hand. */
  warmModel(): Promise<{ baseUrl: string } | undefined>;
}): void {
  setTimeout(
    () =>
      void deps
        .warmModel()
        .catch(() => undefined)
        .then((to) => (to ? warmConnection(to.baseUrl) : warmHttpClient()))
        .catch(() => undefined),
    0,
  );
  // The message schema compiles each kind of message on its first parse (tens of ms on a busy machine):
  // the first Send's is done now, not between the user's Enter and the request.
  setTimeout(() => parseInbound({ type: 'send', requestId: 'warm-up', text: 'warm-up', mode: 'chat' }), 0);
}
