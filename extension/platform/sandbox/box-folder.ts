// The folder that holds a box's proxy socket and forwarder. A unix socket's path must fit in 108
// bytes (sun_path), and a longer one is cut or refused when the proxy listens — then the in-box
// forwarder finds no socket and every proxied connection is reset. A state folder deep in a long
// path (a test run's scratch folder, a long TMPDIR) can get there, so such a box's folder goes to a
// short private one under /tmp instead; it is removed like any other box folder.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';

/** Longest socket path used (sun_path is 108 bytes with its terminating NUL; keep a margin). */
const MAX_SOCKET_PATH = 100;
export const PROXY_SOCKET = 'proxy.sock';

/** Makes the box folder `name` under `stateRoot`, or a short one under /tmp when the socket would not fit. */
export function makeBoxFolder(stateRoot: string, name: string): string {
  const preferred = join(stateRoot, name);
  if (Buffer.byteLength(join(preferred, PROXY_SOCKET)) <= MAX_SOCKET_PATH) {
    mkdirSync(preferred, { recursive: true, mode: 0o700 });
    return preferred;
  }
  return mkdtempSync('/tmp/sextant-box-');
}
