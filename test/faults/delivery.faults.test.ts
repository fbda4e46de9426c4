import { waitUntil } from '../helpers/wait';
import { Cluster, ownerCall, runFault, startCluster } from './harness/cluster';
import { MailServer, mailEffect, startMailServer, startWebhookService, WebhookService, webhookEffect } from './harness/receivers';

/**
 * Side effects through the outbox while their far end fails, with two processes sending it: a mail
 * server that refuses, then accepts; a webhook service that times out, then answers. Every email
 * and every call arrives at least once; the figures count the ones that arrived twice.
 */
let cluster: Cluster;
let mail: MailServer;
let hooks: WebhookService;

beforeAll(async () => {
  mail = await startMailServer();
  hooks = await startWebhookService();
  cluster = await startCluster({ SMTP_URL: mail.url, PARLEY_OUTBOX_RETRY_BASE_MS: '50', PARLEY_OUTBOX_MAX_ATTEMPTS: '20', PARLEY_OUTBOX_LEASE_SECONDS: '15' });
  const bot = await ownerCall(cluster, cluster.processes[0], 'POST', '/bots', {
    full_name: 'Fault Hook',
    short_name: 'faulthook',
    bot_type: '3',
    payload_url: JSON.stringify(hooks.url),
    interface_type: '1',
  });
  expect(bot.user_id).toEqual(expect.any(Number));
}, 240_000);

/** Mentions the outgoing-webhook bot through `process`; the message's id. */
async function mention(process: number, text: string): Promise<number> {
  const sent = await ownerCall(cluster, cluster.processes[process], 'POST', '/messages', {
    type: 'stream',
    to: cluster.stream,
    topic: 'hooks',
    content: `@**Fault Hook** ${text}`,
  });
  return sent.id;
}

afterAll(async () => {
  await cluster?.close();
  await mail?.close();
  await hooks?.close();
}, 120_000);

test('a mail server that refuses, then accepts: every invitation arrives, with one Message-ID each', async () => {
  const addresses = Array.from({ length: 6 }, (_, i) => `invitee${i}@faults.example`);
  const result = await runFault(
    cluster,
    'smtp-refusing',
    async () => {
      mail.refusing = true;
      // Invitations through both processes answer at once: their emails wait in the outbox.
      for (const [i, address] of addresses.entries()) {
        await ownerCall(cluster, cluster.processes[i % 2], 'POST', '/invites', { invitee_emails: address, stream_ids: '[]' });
      }
      await waitUntil(() => addresses.every((address) => mail.attempts.some((a) => a.to.includes(address))), 60_000);
      mail.refusing = false;
    },
    async () => {
      await waitUntil(() => addresses.every((address) => mail.attempts.some((a) => a.accepted && a.to.includes(address))), 120_000);
      return { emails: mailEffect(mail, addresses) };
    },
  );
  expect(result.figures.sideEffects.emails).toMatchObject({ expected: addresses.length, arrived: addresses.length });
  // Every attempt at one email carried the same Message-ID.
  for (const address of addresses) {
    expect(new Set(mail.attempts.filter((a) => a.to.includes(address)).map((a) => a.messageId)).size).toBe(1);
  }
  expect(result.figures).toMatchObject({ messagesLost: 0, deliveriesMissing: 0, deliveryDuplicates: 0, failedDuringFault: 0, failedOutsideFault: 0 });
});

test('a webhook service that times out, then answers: every call arrives, under one delivery id each', async () => {
  const mentions: number[] = [];
  const result = await runFault(
    cluster,
    'webhook-timeout',
    async () => {
      hooks.stalling = true;
      for (const i of [0, 1, 2, 3]) mentions.push(await mention(i % 2, `ping ${i}`));
      await waitUntil(() => mentions.every((id) => hooks.calls.some((c) => c.messageId === id)), 60_000);
      hooks.stalling = false;
    },
    async () => {
      // A stalled call is given up after the webhook timeout (10 s), then tried again.
      await waitUntil(() => mentions.every((id) => hooks.calls.some((c) => c.answered && c.messageId === id)), 120_000);
      return { webhooks: webhookEffect(hooks, mentions) };
    },
  );
  expect(result.figures.sideEffects.webhooks).toMatchObject({ expected: mentions.length, arrived: mentions.length });
  // One delivery id per message, the same on every attempt.
  for (const id of mentions) expect(new Set(hooks.calls.filter((c) => c.messageId === id).map((c) => c.delivery)).size).toBe(1);
  expect(result.figures).toMatchObject({ messagesLost: 0, deliveriesMissing: 0, deliveryDuplicates: 0, failedDuringFault: 0, failedOutsideFault: 0 });
});

test('kill -9 of both processes while a webhook call is in flight: the call is made again once its claim runs out', async () => {
  const mentions: number[] = [];
  const result = await runFault(
    cluster,
    'kill-9-during-webhook',
    async () => {
      hooks.stalling = true;
      mentions.push(await mention(0, 'crash'));
      await waitUntil(() => hooks.calls.some((c) => c.messageId === mentions[0]), 60_000);
      for (const p of cluster.processes) await p.stop('SIGKILL');
      hooks.stalling = false;
      for (const p of cluster.processes) await p.start();
    },
    async () => {
      // The dead process's claim (a 15 s lease here, 60 s by default) runs out, then a live process makes the call again.
      await waitUntil(() => hooks.calls.some((c) => c.answered && c.messageId === mentions[0]), 150_000);
      return { webhooks: webhookEffect(hooks, mentions) };
    },
  );
  expect(result.figures.sideEffects.webhooks).toMatchObject({ expected: 1, arrived: 1 });
  expect(result.figures).toMatchObject({ messagesLost: 0, deliveriesMissing: 0, deliveryDuplicates: 0, failedOutsideFault: 0, clientsWithoutQueue: 0 });
});
