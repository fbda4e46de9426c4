import type autocannon from 'autocannon';
import { basicAuth } from '../lib/servers';
import type { Scenario } from '../scenario';
import type { RunningServer } from '../../src/server';

/**
 * POST /api/v1/users/me/presence, the most frequent request a chat server gets: 1,000 users of a
 * 10,000-user organization report themselves active, each with the last presence_last_update_id it
 * received, as a client initialized from POST /register does every minute. Their presence was
 * stored two minutes before the run, so each user's first report writes; after that a report only
 * reads what changed since the user's previous one.
 */
export const ORGANIZATION_SIZE = 10_000;
export const SIMULATED_USERS = 1_000;

interface Fixtures {
  users: { email: string; apiKey: string }[];
  lastUpdateId: number;
}

/**
 * Runs in the server's process before it is announced ready (see ParleyOptions.seed): the accounts,
 * their settings, API keys for the simulated users and their presence, straight into the tables.
 */
export async function seed(server: RunningServer): Promise<Fixtures> {
  const { generateApiKey, hashApiKey } = await import('../../src/core/users/credentials');
  const { knex, realmId } = server.deps;
  const existing = Number((await knex('users').count('* as n').first())!.n);
  await knex.raw(
    `INSERT INTO users (realm_id, delivery_email, full_name)
     SELECT ?, 'bench' || g || '@example.com', 'Bench User ' || g FROM generate_series(1, ?) g`,
    [realmId, ORGANIZATION_SIZE - existing],
  );
  await knex.raw(
    `INSERT INTO user_settings (user_id, realm_id)
     SELECT id, realm_id FROM users WHERE NOT EXISTS (SELECT 1 FROM user_settings s WHERE s.user_id = users.id)`,
  );
  const simulated: { id: number; delivery_email: string }[] = await knex('users')
    .where('delivery_email', 'like', 'bench%')
    .orderBy('id')
    .limit(SIMULATED_USERS)
    .select('id', 'delivery_email');
  const users = simulated.map((u) => ({ email: u.delivery_email, apiKey: generateApiKey() }));
  const keys = simulated.map((u, i) => ({ realm_id: realmId, user_id: u.id, key_hash: hashApiKey(users[i].apiKey) }));
  for (let i = 0; i < keys.length; i += 500) await knex('api_keys').insert(keys.slice(i, i + 500));

  const twoMinutesAgo = new Date(Date.now() - 120_000);
  const rows = simulated.map((u, i) => ({
    user_id: u.id,
    realm_id: realmId,
    last_active_time: twoMinutesAgo,
    last_connected_time: twoMinutesAgo,
    last_update_id: i + 1,
  }));
  for (let i = 0; i < rows.length; i += 500) await knex('user_presence').insert(rows.slice(i, i + 500));
  await knex('presence_sequences').insert({ realm_id: realmId, last_update_id: rows.length }).onConflict('realm_id').merge();
  return { users, lastUpdateId: rows.length };
}

/**
 * One request per call, rotating over the users; each user's next request carries the
 * presence_last_update_id of its previous answer.
 */
function presenceRequests(users: Fixtures['users'], startId: number): autocannon.Request[] {
  const auth = users.map((u) => basicAuth(u.email, u.apiKey));
  const lastIds = users.map(() => startId);
  let next = 0;
  return [
    {
      method: 'POST',
      path: '/api/v1/users/me/presence',
      setupRequest: (req, context: { user?: number }) => {
        const index = next++ % users.length;
        context.user = index;
        return {
          ...req,
          headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: auth[index] },
          body: `status=active&last_update_id=${lastIds[index]}`,
        };
      },
      onResponse: (status, body, context: { user?: number }) => {
        if (status !== 200 || context.user === undefined) return;
        const match = /"presence_last_update_id":(-?\d+)/.exec(body);
        if (match) lastIds[context.user] = Number(match[1]);
      },
    },
  ];
}

export const scenario: Scenario = {
  name: 'presence',
  description: `POST /api/v1/users/me/presence from ${SIMULATED_USERS} users of ${ORGANIZATION_SIZE} (distinct API keys, modern polling) against bare node:http`,
  async run(ctx) {
    const parley = await ctx.startParley({ seed: __filename });
    try {
      const { users, lastUpdateId } = parley.fixtures as Fixtures;
      ctx.log(`${users.length} users with keys, presence update id ${lastUpdateId}`);
      const url = `${parley.url}/api/v1/users/me/presence`;
      // One real answer: the size of the baseline's body, and proof the requests succeed.
      const probe = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basicAuth(users[0].email, users[0].apiKey) },
        body: `status=active&last_update_id=${lastUpdateId}`,
      });
      const body = await probe.text();
      if (probe.status !== 200) throw new Error(`POST /users/me/presence answered ${probe.status}: ${body}`);

      const baselineServer = await ctx.startBaseline(body);
      try {
        const [baseline, measured] = await ctx.measure([
          {
            label: 'node:http baseline',
            options: { url: `${baselineServer.url}/api/v1/users/me/presence`, requests: presenceRequests(users, lastUpdateId), server: baselineServer },
          },
          { label: 'Parley', options: { url, requests: presenceRequests(users, lastUpdateId), server: parley } },
        ]);
        return {
          results: [baseline, measured],
          goals: [{ label: 'Parley / baseline', value: measured.rps / baseline.rps, atLeast: 0.5 }],
          notes: [
            `${SIMULATED_USERS} API keys rotated over the connections; organization of ${ORGANIZATION_SIZE} users`,
            `baseline body: ${Buffer.byteLength(body)} bytes (one Parley answer)`,
          ],
        };
      } finally {
        await baselineServer.stop();
      }
    } finally {
      await parley.stop();
    }
  },
};
