import fs from 'node:fs';
import { assertSuccess, client } from '../helpers/api';
import { verifyActionFor, verifyPersonalAction } from '../helpers/events';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { pathIdOf, tempDataDir, upload } from './files';

// Attachment events go to the uploader's clients only, in Zulip's shapes.
let ts: TestServer;
let dataDir: string;
let alice: TestUser;
let bob: TestUser;

beforeAll(async () => {
  dataDir = tempDataDir();
  ts = await startTestServer({ DATA_DIR: dataDir });
  alice = await makeUser(ts, 400, { fullName: 'Alice Liddell' });
  bob = await makeUser(ts, 400, { fullName: 'Bob Builder' });
}, SERVER_HOOK_TIMEOUT);
afterAll(async () => {
  await ts.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}, SERVER_HOOK_TIMEOUT);

const watch = (action: () => Promise<unknown>) => verifyPersonalAction(ts, alice, bob, action);
const used = async () => Number((await ts.server.deps.knex('attachments').sum({ total: 'size' }).first())!.total ?? 0);

async function attachmentId(url: string): Promise<number> {
  return (
    await ts.server.deps
      .knex('attachments')
      .where({ path_id: pathIdOf(url) })
      .first('id')
  ).id;
}

test('uploading adds an attachment', async () => {
  let url = '';
  const events = await watch(async () => {
    const res = await upload(ts, alice, [{ name: 'a.txt', data: 'abc' }]);
    url = assertSuccess(res).url;
    return res;
  });
  expect(events).toEqual([
    {
      type: 'attachment',
      op: 'add',
      attachment: { id: await attachmentId(url), name: 'a.txt', path_id: pathIdOf(url), size: 3, create_time: expect.any(Number), message_ids: [] },
      upload_space_used: await used(),
    },
  ]);
});

test('a message linking the file updates it; the recipient hears only of the message', async () => {
  const { url } = assertSuccess(await upload(ts, alice, [{ name: 'b.txt', data: 'bcd' }]));
  let messageId = 0;
  const [aliceEvents, bobEvents] = await verifyActionFor(ts, [alice, bob], async () => {
    const res = await client(ts, alice).post('/messages', { type: 'direct', to: [bob.id], content: `[b](${url})` });
    messageId = assertSuccess(res).id;
    return res;
  });
  const update = aliceEvents.find((e) => e.type === 'attachment');
  expect(update).toEqual({
    id: expect.any(Number),
    type: 'attachment',
    op: 'update',
    attachment: expect.objectContaining({ id: await attachmentId(url), message_ids: [messageId] }),
    upload_space_used: await used(),
  });
  expect(bobEvents.map((e) => e.type)).toEqual(['message']);

  // Editing the link out updates it again; deleting the message then removes nothing more.
  const edit = await verifyActionFor(ts, [alice], () => client(ts, alice).patch(`/messages/${messageId}`, { content: 'gone' }));
  expect(edit[0].find((e) => e.type === 'attachment')).toEqual(
    expect.objectContaining({ op: 'update', attachment: expect.objectContaining({ message_ids: [] }) }),
  );
});

test('deleting the attachment removes it', async () => {
  const { url } = assertSuccess(await upload(ts, alice, [{ name: 'c.txt', data: 'cde' }]));
  const id = await attachmentId(url);
  const events = await watch(() => client(ts, alice).delete(`/attachments/${id}`));
  expect(events).toEqual([{ type: 'attachment', op: 'remove', attachment: { id }, upload_space_used: await used() }]);
});

test('deleting the last message linking a file removes it', async () => {
  const { url } = assertSuccess(await upload(ts, alice, [{ name: 'd.txt', data: 'def' }]));
  const id = await attachmentId(url);
  const messageId = assertSuccess(await client(ts, alice).post('/messages', { type: 'direct', to: [bob.id], content: `[d](${url})` })).id;
  // A later message, so that clients know what the latest is once this one is gone.
  assertSuccess(await client(ts, alice).post('/messages', { type: 'direct', to: [bob.id], content: 'later' }));
  const [events] = await verifyActionFor(ts, [alice], () => client(ts, alice).delete(`/messages/${messageId}`));
  expect(events.find((e) => e.type === 'attachment')).toEqual({
    id: expect.any(Number),
    type: 'attachment',
    op: 'remove',
    attachment: { id },
    upload_space_used: await used(),
  });
});
