import http from 'node:http';
import { assertError, assertSuccess, basicAuth, client } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { download, pathIdOf, UploadBackend, upload } from './files';

/**
 * Uploading, downloading and deleting files through the REST API, run once per file store (each
 * test file names one): the same behaviour whether files live on disk or in an S3 bucket.
 */
export function uploadSuite(makeBackend: () => Promise<UploadBackend>): void {
  let ts: TestServer;
  let backend: UploadBackend;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let guest: TestUser;
  const MIB = 1024 * 1024;

  beforeAll(async () => {
    backend = await makeBackend();
    ts = await startTestServer({ ...backend.env, PARLEY_MAX_FILE_UPLOAD_SIZE_MIB: '1' });
    alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
    bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
    carol = await makeUser(ts, 400, { fullName: 'Carol Singer' });
    guest = await makeUser(ts, 600, { fullName: 'Gus Guest' });
  }, SERVER_HOOK_TIMEOUT);
  afterAll(async () => {
    await ts?.close();
    await backend?.close();
  }, SERVER_HOOK_TIMEOUT);

  const realmId = () => ts.server.deps.realmId;

  async function uploadText(who: TestUser, name = 'notes.txt', text = 'hello file'): Promise<{ url: string; filename: string }> {
    const body = assertSuccess(await upload(ts, who, [{ name, data: text, type: 'text/plain' }]));
    return { url: body.url, filename: body.filename };
  }

  async function channel(name: string, members: TestUser[], settings: Record<string, unknown> = {}): Promise<void> {
    assertSuccess(
      await client(ts, ts.owner).post('/users/me/subscriptions', {
        subscriptions: [{ name }],
        principals: [ts.owner.id, ...members.map((m) => m.id)],
        ...settings,
      }),
    );
  }

  async function send(who: TestUser, to: string | number[], content: string): Promise<number> {
    const params = Array.isArray(to) ? { type: 'direct', to, content } : { type: 'stream', to, topic: 'files', content };
    return assertSuccess(await client(ts, who).post('/messages', params)).id;
  }

  async function status(url: string, who: TestUser | null): Promise<number> {
    const res = await download(ts, url, who);
    await res.arrayBuffer();
    return res.status;
  }

  describe('uploading', () => {
    test('answers url, uri and filename; the file is stored under its path_id and served back to its uploader', async () => {
      const res = await upload(ts, alice, [{ name: 'zulip.txt', data: 'zulip!', type: 'text/plain' }]);
      const body = assertSuccess(res);
      expect(body.url).toMatch(new RegExp(`^/user_uploads/${realmId()}/[0-9a-f]{2}/[A-Za-z0-9_-]{24}/zulip\\.txt$`));
      expect(body.uri).toBe(body.url);
      expect(body.filename).toBe('zulip.txt');
      expect((await backend.read(pathIdOf(body.url)))?.toString()).toBe('zulip!');
      expect((await backend.storedFiles()).filter((f) => f.startsWith('.staging'))).toEqual([]);

      const got = await download(ts, body.url, alice);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe('text/plain');
      expect(got.headers.get('content-disposition')).toMatch(/^inline; filename="zulip.txt"/);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await got.text()).toBe('zulip!');
    });

    test('a name that is unsafe in a URL is sanitized in the path, kept in `filename`', async () => {
      const { url, filename } = await uploadText(alice, 'my résumé (final)?.txt');
      expect(filename).toBe('my résumé (final)?.txt');
      expect(pathIdOf(url).split('/').pop()).toBe('my-résumé-final.txt');
      expect(await (await download(ts, url, alice)).text()).toBe('hello file');
    });

    test('a binary file of several chunks arrives intact, with its type guessed from its name when not declared', async () => {
      const data = Buffer.alloc(700 * 1024);
      for (let i = 0; i < data.length; i++) data[i] = (i * 7919) % 251;
      const body = assertSuccess(await upload(ts, alice, [{ name: 'photo.png', data }]));
      const got = await download(ts, body.url, alice);
      expect(got.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await got.arrayBuffer()).equals(data)).toBe(true);
    });

    test('no file, two files, or a form body: Zulip’s errors, nothing stored', async () => {
      const before = await backend.storedFiles();
      assertError(await upload(ts, alice, []), 'BAD_REQUEST', 'You must specify a file to upload');
      assertError(await client(ts, alice).post('/user_uploads', { x: 1 }), 'BAD_REQUEST', 'You must specify a file to upload');
      assertError(
        await upload(ts, alice, [
          { name: 'a.txt', data: 'a' },
          { name: 'b.txt', data: 'b' },
        ]),
        'BAD_REQUEST',
        'You may only upload one file at a time',
      );
      expect(await backend.storedFiles()).toEqual(before);
    });

    test('a file over PARLEY_MAX_FILE_UPLOAD_SIZE_MIB is refused with Zulip’s message and leaves nothing behind', async () => {
      const before = await backend.storedFiles();
      const count = await ts.server.deps.knex('attachments').count({ n: '*' }).first();
      const res = await upload(ts, alice, [{ name: 'big.bin', data: Buffer.alloc(MIB + 1) }]);
      assertError(res, 'BAD_REQUEST', 'Uploaded file is larger than the allowed limit of 1 MiB');
      assertSuccess(await upload(ts, alice, [{ name: 'exact.bin', data: Buffer.alloc(MIB) }]));
      const after = await ts.server.deps.knex('attachments').count({ n: '*' }).first();
      expect(Number(after!.n)).toBe(Number(count!.n) + 1);
      expect((await backend.storedFiles()).filter((f) => !before.includes(f))).toEqual([expect.stringMatching(/exact\.bin$/)]);
    });

    test('a body far over the limit is refused from its declared length (413), before it is sent', async () => {
      const { hostname, port } = new URL(ts.url);
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({
          host: hostname,
          port,
          method: 'POST',
          path: '/api/v1/user_uploads',
          headers: { authorization: basicAuth(alice), 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(40 * MIB) },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.flushHeaders();
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).msg).toBe('Request body is larger than the allowed limit of 25 MiB');
    });

    test('an anonymous upload is refused', async () => {
      const res = await upload(ts, null, [{ name: 'a.txt', data: 'a' }]);
      assertError(res, 'UNAUTHORIZED', 'Not logged in: API authentication or user session required', 401);
    });

    test('register announces the size limit and (absent) quota', async () => {
      const state = assertSuccess(await client(ts, alice).post('/register', { fetch_event_types: ['realm'] }));
      expect(state.max_file_upload_size_mib).toBe(1);
      expect(state.realm_upload_quota_mib).toBeNull();
    });
  });

  describe('who may download', () => {
    test('anonymous: 401; a user no message shows it to: 403; an unknown path or realm: 404', async () => {
      const { url } = await uploadText(alice);
      expect(await status(url, null)).toBe(401);
      const refused = await download(ts, url, bob);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { msg: string }).msg).toBe('You are not authorized to view this file.');
      expect(await status(`${url}x`, alice)).toBe(404);
      expect(await status(url.replace(`/user_uploads/${realmId()}/`, `/user_uploads/${realmId() + 1}/`), alice)).toBe(404);
      expect(await status(`/user_uploads/${realmId()}/../../etc/passwd`, alice)).toBe(404);
    });

    test('a message in a public channel shares the file with its readers, not with guests outside it', async () => {
      await channel('public files', [alice]);
      const { url, filename } = await uploadText(alice);
      expect(await status(url, bob)).toBe(403);
      await send(alice, 'public files', `[${filename}](${url})`);
      expect(await status(url, bob)).toBe(200);
      expect(await status(url, carol)).toBe(200);
      expect(await status(url, guest)).toBe(403);
    });

    test('a direct message shares the file with its recipients only', async () => {
      const { url, filename } = await uploadText(alice);
      await send(alice, [bob.id], `see [${filename}](${url})`);
      expect(await status(url, bob)).toBe(200);
      expect(await status(url, carol)).toBe(403);
    });

    test('a private channel with shared history: a later subscriber gains access; with protected history, not', async () => {
      await channel('shared history', [alice], { invite_only: true, history_public_to_subscribers: true });
      await channel('protected history', [alice], { invite_only: true, history_public_to_subscribers: false });
      const shared = await uploadText(alice, 'shared.txt');
      const protectedFile = await uploadText(alice, 'protected.txt');
      await send(alice, 'shared history', `[x](${shared.url})`);
      await send(alice, 'protected history', `[x](${protectedFile.url})`);
      expect(await status(shared.url, carol)).toBe(403);
      await channel('shared history', [carol]);
      await channel('protected history', [carol]);
      expect(await status(shared.url, carol)).toBe(200);
      expect(await status(protectedFile.url, carol)).toBe(403);
    });

    test('linking a file one cannot read does not share it', async () => {
      await channel('relay', [bob]);
      const { url } = await uploadText(alice);
      await send(bob, 'relay', `[stolen](${url})`);
      expect(await status(url, carol)).toBe(403);
      expect(await status(url, bob)).toBe(403);
    });

    test('a full URL to the file counts as a link too', async () => {
      const { url } = await uploadText(alice);
      await send(alice, [carol.id], `${ts.server.deps.config.externalUrl}${url}`);
      expect(await status(url, carol)).toBe(200);
    });
  });

  describe('safe serving', () => {
    test('HTML and SVG are sent as downloads, never shown in place', async () => {
      for (const [name, type, data] of [
        ['page.html', 'text/html', '<script>alert(1)</script>'],
        ['drawing.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      ]) {
        const body = assertSuccess(await upload(ts, alice, [{ name, data, type }]));
        const got = await download(ts, body.url, alice);
        expect(got.headers.get('content-type')).toBe('application/octet-stream');
        expect(got.headers.get('content-disposition')).toMatch(/^attachment; /);
        expect(got.headers.get('x-content-type-options')).toBe('nosniff');
        expect(got.headers.get('content-security-policy')).toContain('sandbox');
        expect(await got.text()).toBe(data);
      }
    });

    test('/user_uploads/download/ always sends an attachment', async () => {
      const { url } = await uploadText(alice);
      const got = await download(ts, url.replace('/user_uploads/', '/user_uploads/download/'), alice);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-disposition')).toMatch(/^attachment; filename="notes.txt"/);
    });
  });

  describe('temporary URLs', () => {
    test('GET /api/v1/user_uploads/... answers a link that works without credentials', async () => {
      const { url } = await uploadText(alice, 'temp.txt', 'temporary');
      const body = assertSuccess(await client(ts, alice).get(url.replace('/user_uploads/', '/user_uploads/')));
      expect(body.url).toMatch(/^\/user_uploads\/temporary\/[A-Za-z0-9_.-]+\/temp\.txt$/);
      const got = await download(ts, body.url, null);
      expect(got.status).toBe(200);
      expect(await got.text()).toBe('temporary');
      const [, , , token] = body.url.split('/');
      // Two characters changed (never to what they were).
      const forged = body.url.replace(token, `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`);
      expect(await status(forged, null)).toBe(404);
    });

    test('a user who may not read the file gets no link', async () => {
      const { url } = await uploadText(alice);
      const res = await client(ts, bob).get(url);
      expect(res.status).toBe(403);
      expect(res.body.msg).toBe('You are not authorized to view this file.');
      expect((await client(ts, bob).get(`/user_uploads/${realmId()}/ab/nothing/here.txt`)).status).toBe(404);
    });

    test('an expired link is refused', async () => {
      const { temporaryUrl } = await import('../../src/core/uploads/signed-urls');
      const { url } = await uploadText(alice);
      const old = await temporaryUrl(ts.server.deps, pathIdOf(url), Date.now() - 61_000);
      expect(await status(old, null)).toBe(404);
    });
  });

  describe('attachments', () => {
    test('GET /attachments lists the user’s files with the messages linking them', async () => {
      const { url } = await uploadText(bob, 'listed.txt', '12345');
      const messageId = await send(bob, [alice.id], `[listed](${url})`);
      const body = assertSuccess(await client(ts, bob).get('/attachments'));
      const entry = body.attachments.find((a: { path_id: string }) => a.path_id === pathIdOf(url));
      expect(entry).toEqual({
        id: expect.any(Number),
        name: 'listed.txt',
        path_id: pathIdOf(url),
        size: 5,
        create_time: expect.any(Number),
        message_ids: [messageId],
      });
      const used = await ts.server.deps.knex('attachments').sum({ total: 'size' }).first();
      expect(body.upload_space_used).toBe(Number(used!.total));
      const others = assertSuccess(await client(ts, alice).get('/attachments')).attachments;
      expect(others.some((a: { path_id: string }) => a.path_id === pathIdOf(url))).toBe(false);
    });

    test('DELETE /attachments/{id}: only the uploader; afterwards the file is gone everywhere', async () => {
      const { url } = await uploadText(bob, 'gone.txt');
      await send(bob, [alice.id], `[gone](${url})`);
      const temp = assertSuccess(await client(ts, alice).get(url)).url;
      const { id } = assertSuccess(await client(ts, bob).get('/attachments')).attachments.find((a: { path_id: string }) => a.path_id === pathIdOf(url));
      assertError(await client(ts, alice).delete(`/attachments/${id}`), 'BAD_REQUEST', 'Invalid attachment');
      assertError(await client(ts, bob).delete('/attachments/99999999'), 'BAD_REQUEST', 'Invalid attachment');
      assertError(await client(ts, bob).delete('/attachments/99999999999'), 'BAD_REQUEST', 'Invalid attachment');
      assertSuccess(await client(ts, bob).delete(`/attachments/${id}`));
      expect(await status(url, bob)).toBe(404);
      expect(await status(url, alice)).toBe(404);
      expect(await status(temp, null)).toBe(404);
      expect(await backend.read(pathIdOf(url))).toBeNull();
      assertError(await client(ts, bob).delete(`/attachments/${id}`), 'BAD_REQUEST', 'Invalid attachment');
    });

    test('editing a message out of its link withdraws access and reports the detached upload', async () => {
      const { url } = await uploadText(alice, 'edited.txt');
      const messageId = await send(alice, [carol.id], `[edited](${url})`);
      expect(await status(url, carol)).toBe(200);
      const res = assertSuccess(await client(ts, alice).patch(`/messages/${messageId}`, { content: 'never mind' }));
      expect(res.detached_uploads).toEqual([expect.objectContaining({ path_id: pathIdOf(url), name: 'edited.txt', message_ids: [] })]);
      expect(await status(url, carol)).toBe(403);
      const again = assertSuccess(await client(ts, alice).patch(`/messages/${messageId}`, { content: `[back](${url})` }));
      expect(again.detached_uploads).toEqual([]);
      expect(await status(url, carol)).toBe(200);
    });

    test('deleting the last message linking a file deletes the file; one still linked elsewhere stays', async () => {
      const { url } = await uploadText(alice, 'twice.txt');
      const first = await send(alice, [carol.id], `[a](${url})`);
      const second = await send(alice, [bob.id], `[b](${url})`);
      assertSuccess(await client(ts, alice).delete(`/messages/${first}`));
      expect(await status(url, carol)).toBe(403);
      expect(await status(url, bob)).toBe(200);
      assertSuccess(await client(ts, alice).delete(`/messages/${second}`));
      expect(await status(url, alice)).toBe(404);
      // The bytes go once the deletion has committed.
      for (let i = 0; i < 50 && (await backend.read(pathIdOf(url))) !== null; i++) await new Promise((r) => setTimeout(r, 20));
      expect(await backend.read(pathIdOf(url))).toBeNull();
    });
  });
}
