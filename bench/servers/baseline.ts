import http from 'node:http';
import { announceReady } from './child';

/** The reference point: node:http answering every request with one fixed JSON body. */
const body = Buffer.from(process.env.BENCH_BODY ?? '{"result":"success","msg":""}');

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  announceReady(
    { url: `http://127.0.0.1:${address.port}` },
    () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  );
});
