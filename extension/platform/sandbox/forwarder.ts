// The in-box half of the network bridge: a few lines of Node run inside the box (by the same Node
// binary as the extension host) that accept TCP on the box's loopback and pass each connection to
// the host's proxy through the unix socket bound into the box. It decides nothing: the host side
// reads the CONNECT / SOCKS request and checks the allow-list. Written to the box's folder as is.
export const FORWARDER_SOURCE = `'use strict';
const net = require('net');
const [sock, port] = process.argv.slice(2);
const server = net.createServer((client) => {
  const up = net.connect(sock);
  client.pipe(up).pipe(client);
  const end = () => { client.destroy(); up.destroy(); };
  client.on('error', end); up.on('error', end);
});
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\\n'));
`;
