import http from 'node:http';
import { announceReady } from './child';

/**
 * The reference point: node:http answering every request with one fixed JSON body. With
 * BENCH_HOLD=1 it holds every request instead, until a request to /trigger arrives: then it
 * answers the held ones and the trigger (the least work a server can do to deliver one event to
 * many waiting clients).
 */
const body = Buffer.from(process.env.BENCH_BODY ?? '{"result":"success","msg":""}');
const hold = process.env.BENCH_HOLD === '1';
const held: http.ServerResponse[] = [];

function answer(res: http.ServerResponse): void {
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
  res.end(body);
}

function release(): void {
  for (const res of held.splice(0)) answer(res);
}

const server = http.createServer((req, res) => {
  if (!hold) return answer(res);
  if (req.url === '/trigger') {
    release();
    answer(res);
  } else {
    held.push(res);
  }
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  announceReady(
    { url: `http://127.0.0.1:${address.port}` },
    () =>
      new Promise((resolve) => {
        release();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    {
      waiting: () => held.length,
      release: () => release(),
    },
  );
});
