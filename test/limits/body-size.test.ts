import net from 'node:net';
import { assertSuccess, basicAuth, client, graphql } from '../helpers/api';
import { makeUser, startTestServer, TestServer, TestUser, SERVER_HOOK_TIMEOUT } from '../helpers/server';
import { multipartFile, streamBody } from './streamed-body';

/**
 * Request bodies are bounded before they are buffered: credentials are checked from the headers
 * before any of the body is read, and a body over the limit is refused as soon as that is known,
 * with the connection closed so the rest is never read.
 */
const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

let ts: TestServer;
let admin: TestUser;
beforeAll(async () => {
  ts = await startTestServer();
  admin = await makeUser(ts, 200);
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
}, SERVER_HOOK_TIMEOUT);

const emojiUrl = (name: string) => `${ts.url}/api/v1/realm/emoji/${name}`;
const TOO_LARGE = { result: 'error', msg: 'Request body is larger than the allowed limit of 25 MiB', code: 'BAD_REQUEST' };

/** Resident memory after a collection, when the test runs with --expose-gc; else as it stands. */
function rss(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
}

describe('an upload without credentials', () => {
  test.each([true, false])('1 GiB (declared length: %s) is refused with 401 at once, and hardly any of it is read', async (declareLength) => {
    const before = rss();
    const answer = await streamBody({ url: emojiUrl('huge'), declareLength, ...multipartFile(GIB) });
    const added = rss() - before;
    console.log(
      `1 GiB unauthenticated upload (declared length: ${declareLength}): answered after ${answer.answeredAfterMs} ms, ` +
        `${(answer.bytesWritten / MIB).toFixed(1)} MiB sent, RSS +${(added / MIB).toFixed(1)} MiB`,
    );
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({ result: 'error', msg: 'Not logged in: API authentication or user session required', code: 'UNAUTHORIZED' });
    expect(answer.headers.connection).toBe('close');
    expect(answer.answeredAfterMs).toBeLessThan(5_000);
    // The client stops once the connection closes: what it managed to send is socket buffers, not the body.
    expect(answer.bytesWritten).toBeLessThan(64 * MIB);
    expect(added).toBeLessThan(16 * MIB);
  });

  test('with bad credentials is refused the same way', async () => {
    const answer = await streamBody({
      url: emojiUrl('huge'),
      declareLength: true,
      ...multipartFile(GIB),
      headers: { ...multipartFile(0).headers, authorization: basicAuth({ email: admin.email, apiKey: 'x'.repeat(32) }) },
    });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ code: 'UNAUTHORIZED', msg: 'Invalid API key' });
    expect(answer.bytesWritten).toBeLessThan(64 * MIB);
  });
});

describe('an authenticated body over the limit', () => {
  const auth = () => ({ ...multipartFile(0).headers, authorization: basicAuth(admin) });

  test('a declared length over 25 MiB is refused with 413 before the body is read', async () => {
    const answer = await streamBody({ url: emojiUrl('big'), declareLength: true, ...multipartFile(26 * MIB), headers: auth() });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(TOO_LARGE);
    expect(answer.headers.connection).toBe('close');
    expect(answer.bytesWritten).toBeLessThan(20 * MIB);
  });

  test('a chunked body is refused once 25 MiB arrived, and the rest is not read', async () => {
    const before = rss();
    const answer = await streamBody({ url: emojiUrl('big'), declareLength: false, ...multipartFile(GIB), headers: auth() });
    const added = rss() - before;
    console.log(
      `1 GiB authenticated chunked upload: 413 after ${answer.answeredAfterMs} ms, ${(answer.bytesWritten / MIB).toFixed(1)} MiB sent, RSS +${(added / MIB).toFixed(1)} MiB`,
    );
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(TOO_LARGE);
    expect(answer.bytesWritten).toBeGreaterThan(25 * MIB);
    expect(answer.bytesWritten).toBeLessThan(100 * MIB);
  });

  test('a urlencoded body over the limit is refused too, declared or chunked', async () => {
    const headers = { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(admin) };
    for (const declareLength of [true, false]) {
      const answer = await streamBody({ url: `${ts.url}/api/v1/messages/render`, declareLength, headers, prefix: 'content=', size: 30 * MIB });
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual(TOO_LARGE);
    }
  });

  test('nothing changed, and the server still answers on new connections', async () => {
    const emoji = assertSuccess(await client(ts, admin).get('/realm/emoji')).emoji;
    expect(Object.values(emoji).map((e: any) => e.name)).not.toContain('big');
    assertSuccess(await client(ts, admin).get('/users/me'));
  });
});

describe('malformed multipart', () => {
  test('a body that ends inside a file is a malformed payload, and the server lives on', async () => {
    const { prefix, headers } = multipartFile(0);
    const res = await fetch(emojiUrl('cut'), {
      method: 'POST',
      headers: { ...headers, authorization: basicAuth(admin) },
      body: `${prefix}GIF89a, and then the body stops`,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ result: 'error', msg: 'Malformed payload', code: 'BAD_REQUEST' });
    assertSuccess(await client(ts, admin).get('/users/me'));
  });
});

describe('counts of parts', () => {
  test('more than 10,000 multipart fields are refused with 413', async () => {
    const form = new FormData();
    for (let i = 0; i <= 10_000; i++) form.append(`p${i}`, '1');
    const res = await fetch(`${ts.url}/api/v1/messages/render`, { method: 'POST', headers: { authorization: basicAuth(admin) }, body: form });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ result: 'error', msg: 'Request has more than the allowed limit of 10000 parameters', code: 'BAD_REQUEST' });
  });

  test('more than 20 files are refused with 413', async () => {
    const form = new FormData();
    for (let i = 0; i <= 20; i++) form.append(`f${i}`, new Blob([Buffer.from('GIF89a')], { type: 'image/gif' }), `f${i}.gif`);
    const res = await fetch(emojiUrl('many'), { method: 'POST', headers: { authorization: basicAuth(admin) }, body: form });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ result: 'error', msg: 'Request has more than the allowed limit of 20 files', code: 'BAD_REQUEST' });
  });
});

describe('the limit is configurable', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startTestServer({ PARLEY_MAX_REQUEST_BODY_MIB: '1' });
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await small?.close();
  }, SERVER_HOOK_TIMEOUT);

  test('PARLEY_MAX_REQUEST_BODY_MIB=1 refuses 2 MiB and accepts less than 1 MiB', async () => {
    const headers = { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(small.owner) };
    const answer = await streamBody({ url: `${small.url}/api/v1/messages/render`, declareLength: true, headers, prefix: 'content=', size: 2 * MIB });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ ...TOO_LARGE, msg: 'Request body is larger than the allowed limit of 1 MiB' });
    const fits = await client(small, small.owner).post('/messages/render', { content: 'x'.repeat(5000) });
    expect(assertSuccess(fits).rendered).toBe(`<p>${'x'.repeat(5000)}</p>`);
  });
});

describe('other paths', () => {
  const form = { headers: { 'content-type': 'application/x-www-form-urlencoded' }, prefix: 'full_name=', size: GIB };

  test('a large body to a path nothing serves is answered with 404 and not read', async () => {
    for (const declareLength of [true, false]) {
      const answer = await streamBody({ url: `${ts.url}/nothing/here`, declareLength, ...form });
      expect(answer.status).toBe(404);
      expect(answer.bytesWritten).toBeLessThan(64 * MIB);
    }
  });

  test('the sign-up form refuses a body over 64 KiB without reading it', async () => {
    for (const declareLength of [true, false]) {
      const answer = await streamBody({ url: `${ts.url}/join/some-key/`, declareLength, ...form });
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual({ ...TOO_LARGE, msg: 'Request body is larger than the allowed limit of 64 KiB' });
      expect(answer.bytesWritten).toBeLessThan(64 * MIB);
    }
  });
});

describe('GraphQL bodies', () => {
  const TOO_LARGE_GQL = { result: 'error', msg: 'Request body is larger than the allowed limit of 1 MiB', code: 'BAD_REQUEST' };

  test.each([true, false])('over 1 MiB (declared length: %s) is refused with 413 without reading the rest', async (declareLength) => {
    const answer = await streamBody({
      url: `${ts.url}/graphql`,
      declareLength,
      headers: { 'content-type': 'application/json', authorization: basicAuth(admin) },
      prefix: '{"query":"{ me { userId } }","variables":{"pad":"',
      suffix: '"}}',
      size: GIB,
    });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(TOO_LARGE_GQL);
    expect(answer.bytesWritten).toBeLessThan(64 * MIB);
  });

  test('a client that reads late still gets the answer before the connection closes', async () => {
    // The client goes on writing and only reads a second later: the connection must not be reset
    // under it (a reset loses the answer it has not read yet).
    const port = Number(new URL(ts.url).port);
    const outcome = await new Promise<{ answer: string; error: string | null }>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('error', (error) => resolve({ answer, error: error.message }));
      socket.on('close', () => resolve({ answer, error: null }));
      socket.on('connect', () => {
        socket.write(
          `POST /graphql HTTP/1.1\r\nHost: parley\r\nContent-Type: application/json\r\nAuthorization: ${basicAuth(admin)}\r\n` +
            'Transfer-Encoding: chunked\r\n\r\n',
        );
        const chunk = `${MIB.toString(16)}\r\n${'x'.repeat(MIB)}\r\n`;
        for (let i = 0; i < 8; i++) socket.write(chunk);
        socket.pause();
        setTimeout(() => socket.resume(), 1000);
      });
    });
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(outcome.answer).toContain('Request body is larger than the allowed limit of 1 MiB');
    expect(outcome.error).toBeNull();
  });

  test('a normal operation still works', async () => {
    const res = await graphql(ts, admin, '{ me { userId } }');
    expect(res.data).toEqual({ me: { userId: admin.id } });
  });
});
