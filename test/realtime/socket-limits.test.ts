import { makeUser, startTestServer, TestServer, TestUser } from '../helpers/server';
import { waitUntil } from '../helpers/wait';
import { openedSocket, openSocket, RawSocket } from '../helpers/ws';

jest.setTimeout(120_000);

let ts: TestServer;
let alice: TestUser;
const sockets: RawSocket[] = [];

beforeAll(async () => {
  ts = await startTestServer({
    PARLEY_WS_INIT_TIMEOUT_SECONDS: '1',
    PARLEY_WS_MAX_UNAUTHENTICATED: '3',
    PARLEY_WS_MAX_SOCKETS_PER_USER: '2',
    PARLEY_WS_MAX_SUBSCRIPTIONS: '3',
  });
  alice = await makeUser(ts, 400);
});
afterEach(async () => {
  const open = sockets.splice(0);
  for (const socket of open) socket.ws.terminate();
  await Promise.all(open.map((socket) => socket.closed()));
});
afterAll(async () => {
  await ts.close();
});

async function open(): Promise<RawSocket> {
  const socket = await openedSocket(ts);
  sockets.push(socket);
  return socket;
}

test('a frame above the size bound closes the socket before its handshake (1009)', async () => {
  const socket = await open();
  const heapBefore = process.memoryUsage().heapUsed;
  socket.ws.send(Buffer.alloc(1024 * 1024, 'a'));
  expect(await socket.closed()).toBe(1009);
  // The server read the frame's header, not its megabyte.
  expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(16 * 1024 * 1024);
});

test('a socket that does not send connection_init in time is closed (4408)', async () => {
  const socket = await open();
  const started = Date.now();
  expect(await socket.closed()).toBe(4408);
  expect(Date.now() - started).toBeGreaterThanOrEqual(900);
});

test('unauthenticated sockets are bounded: the next upgrade is refused with 503 until one authenticates', async () => {
  const waiting = [await open(), await open(), await open()];
  expect(await openSocket(ts)).toEqual({ status: 503 });
  expect(await waiting[0].init(alice)).toBe(true);
  const next = await open();
  expect(next.closeCode).toBeNull();
  for (const socket of waiting.slice(1)) expect(await socket.closed()).toBe(4408);
});

test('one user holds a bounded number of sockets (4429 beyond)', async () => {
  const first = await open();
  const second = await open();
  expect(await first.init(alice)).toBe(true);
  expect(await second.init(alice)).toBe(true);
  const third = await open();
  expect(await third.init(alice)).toBe(false);
  expect(third.closeCode).toBe(4429);
  // Another user is not affected, and a closed socket frees its place.
  const bob = await makeUser(ts, 400);
  const bobs = await open();
  expect(await bobs.init(bob)).toBe(true);
  first.ws.close();
  await first.closed();
  const again = await open();
  expect(await again.init(alice)).toBe(true);
});

test('operations running at once on one socket are bounded', async () => {
  const socket = await open();
  expect(await socket.init(alice)).toBe(true);
  const listeners = ts.server.deps.bus.listenerCount ?? 0;
  for (const id of ['1', '2', '3', '4']) socket.subscribe(id, 'subscription { zulipEvents }');
  await waitUntil(() => socket.messages.some((m) => m.id === '4'));
  expect(socket.messages.find((m) => m.id === '4')).toEqual({
    id: '4',
    type: 'error',
    payload: [{ message: 'Too many operations on this connection: at most 3 may run at once', extensions: { code: 'BAD_REQUEST' } }],
  });
  await waitUntil(() => (ts.server.deps.bus.listenerCount ?? 0) === listeners + 3);
  // Completing one makes room for another.
  socket.send({ id: '1', type: 'complete' });
  await waitUntil(() => (ts.server.deps.bus.listenerCount ?? 0) === listeners + 2);
  socket.subscribe('5', 'subscription { zulipEvents }');
  await waitUntil(() => (ts.server.deps.bus.listenerCount ?? 0) === listeners + 3);
  expect(socket.messages.filter((m) => m.type === 'error')).toHaveLength(1);
});
