// A throwaway HTTP server on 127.0.0.1 for the warm-ups, which exercise Node's HTTP client (and an SDK's
// request path) without anything leaving the machine. The server reads each request to its end before
// answering, and is closed with every connection once `use` is done: Node's client keeps a connection
// alive in its pool, and no socket may outlive a warm-up.
import { createServer, type ServerResponse } from 'node:http';

export async function withLoopbackServer(
  answer: (res: ServerResponse) => void,
  use: (baseUrl: string) => Promise<void>,
): Promise<void> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => answer(res));
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const address = server.address();
    if (!address || typeof address === 'string') return;
    await use(`http://127.0.0.1:${address.port}`);
  } finally {
    server.closeAllConnections();
    server.close();
  }
}
