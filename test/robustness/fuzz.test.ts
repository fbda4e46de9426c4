import { reactivateRealm } from '../../src/core/realm/activation';
import { routes } from '../../src/rest/routes';
import { assertSuccess, basicAuth, client } from '../helpers/api';
import { makeUser, SERVER_HOOK_TIMEOUT, startTestServer, TestServer, TestUser } from '../helpers/server';
import { subscribe, sendToChannel } from '../messages/helpers';
import { GraphQLGenerator } from './fuzz-graphql';
import { describeRequest, RequestGenerator, WireRequest } from './fuzz-requests';
import { Rng } from './fuzz-values';

/**
 * Generated requests against every declared endpoint (read from the route table, so endpoints added
 * later are covered too), as owner, member, guest and strangers: none may answer 5xx, and the
 * server must still answer afterwards. Deterministic for a seed: PARLEY_FUZZ_SEED replays a run,
 * PARLEY_FUZZ_REQUESTS sets its size.
 */
const SEED = Number(process.env.PARLEY_FUZZ_SEED ?? 20261125);
const REQUESTS = Number(process.env.PARLEY_FUZZ_REQUESTS ?? 3000);
const CONCURRENCY = 4;
const TIMEOUT_MS = 20_000;

let ts: TestServer;
const cast: Record<'owner' | 'member' | 'guest', TestUser> = {} as never;

/**
 * The callers' accounts come back when a request deactivated one, took its key or changed its role;
 * the organization too, when a request deactivated it (as the operator would reactivate it).
 */
async function restoreCast(): Promise<void> {
  await reactivateRealm(ts.server.deps);
  cast.owner = await makeUser(ts, 100);
  cast.member = await makeUser(ts, 400);
  cast.guest = await makeUser(ts, 600);
}

beforeAll(async () => {
  ts = await startTestServer({ PARLEY_RATE_LIMITING: 'false' });
  await restoreCast();
  const lobby = await subscribe(ts, ts.owner, 'lobby', [ts.owner, cast.owner, cast.member, cast.guest]);
  await subscribe(ts, ts.owner, 'secret', [ts.owner], { invite_only: true });
  for (let i = 0; i < 4; i++) await sendToChannel(ts, cast.member, lobby, 'fuzz topic', `message ${i} @**all**`);
}, SERVER_HOOK_TIMEOUT);
afterAll(() => ts.close(), SERVER_HOOK_TIMEOUT);

interface Outcome {
  status: number;
  text: string;
}

async function send(request: WireRequest): Promise<Outcome> {
  const headers: Record<string, string> = {};
  if (request.caller === 'bad-key') headers.authorization = basicAuth({ email: cast.member.email, apiKey: 'x'.repeat(32) });
  else if (request.caller === 'malformed') headers.authorization = 'Basic !!not base64\u00e9';
  else if (request.caller !== 'none') headers.authorization = basicAuth(cast[request.caller]);
  let body: string | FormData | undefined;
  if (request.body && 'form' in request.body) {
    body = new FormData();
    for (const [k, v] of request.body.form) body.append(k, v);
  } else if (request.body) {
    headers['content-type'] = request.body.contentType;
    body = request.body.data;
  }
  const res = await fetch(`${ts.url}/api/v1${request.url}`, { method: request.method, headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
  return { status: res.status, text: await res.text() };
}

/** What is wrong with an answer, if anything: a 5xx, a stack trace, or no answer at all. */
async function check(request: WireRequest): Promise<string | null> {
  let outcome: Outcome;
  try {
    outcome = await send(request);
  } catch (error) {
    return `no answer (${(error as Error).message})`;
  }
  if (outcome.status >= 500) return `${outcome.status} ${outcome.text.slice(0, 200)}`;
  if (/\n\s+at .+\(.+:\d+:\d+\)/.test(outcome.text)) return `stack trace in ${outcome.status}`;
  return null;
}

test('generated requests to every endpoint never get a 5xx', async () => {
  const rng = new Rng(SEED);
  const generator = new RequestGenerator(rng, {
    emails: [ts.owner.email, cast.member.email, cast.guest.email, 'nobody@example.com'],
    channelNames: ['lobby', 'secret', 'missing'],
  });
  const planned: WireRequest[] = [];
  // Deactivating the organization would leave every later request answering REALM_DEACTIVATED,
  // testing nothing more (its own tests cover it).
  const fuzzed = routes.filter((route) => route.path !== '/realm/deactivate');
  for (let i = 0; i < REQUESTS; i++) planned.push(generator.forRoute(fuzzed[i % fuzzed.length]));

  const failures: string[] = [];
  const started = Date.now();
  // In rounds: requests of a round run side by side; the callers are restored between rounds.
  const ROUND = 200;
  for (let start = 0; start < planned.length; start += ROUND) {
    const round = planned.slice(start, start + ROUND);
    let next = 0;
    const worker = async () => {
      while (next < round.length) {
        const request = round[next++];
        const problem = await check(request);
        if (problem) failures.push(`${problem}\n    ${describeRequest(request)}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    await restoreCast();
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`fuzz: seed ${SEED}, ${planned.length} requests over ${routes.length} routes in ${seconds}s, ${failures.length} failed\n`);
  if (failures.length > 0) {
    throw new Error(
      `seed ${SEED} (PARLEY_FUZZ_SEED replays it): ${failures.length} of ${planned.length} requests failed:\n${failures.slice(0, 25).join('\n')}`,
    );
  }
  // Still serving, anonymous and authenticated.
  assertSuccess(await client(ts, null).get('/server_settings'));
  assertSuccess(await client(ts, cast.member).get('/users/me'));
}, 600_000);

test('generated GraphQL operations never get a 5xx', async () => {
  const rng = new Rng(SEED);
  const generator = new GraphQLGenerator(rng);
  const callers = ['owner', 'member', 'guest', 'none'] as const;
  const failures: string[] = [];
  const total = generator.fieldCount * 3;
  for (let i = 0; i < total; i++) {
    const { body, label } = generator.next(i);
    const caller = rng.pick(callers);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (caller !== 'none') headers.authorization = basicAuth(cast[caller]);
    try {
      const res = await fetch(`${ts.url}/graphql`, { method: 'POST', headers, body, signal: AbortSignal.timeout(TIMEOUT_MS) });
      const text = await res.text();
      if (res.status >= 500 || /\n\s+at .+\(.+:\d+:\d+\)/.test(text) || text.includes('Internal server error')) {
        failures.push(`${res.status} ${text.slice(0, 200)}\n    ${caller} ${label}: ${body.slice(0, 300)}`);
      }
    } catch (error) {
      failures.push(`no answer (${(error as Error).message})\n    ${caller} ${label}`);
    }
    if (i % 100 === 99) await restoreCast();
  }
  process.stdout.write(`fuzz: seed ${SEED}, ${total} GraphQL requests, ${failures.length} failed\n`);
  if (failures.length > 0) throw new Error(`seed ${SEED}: ${failures.length} of ${total} GraphQL requests failed:\n${failures.slice(0, 25).join('\n')}`);
  // Still serving (the last operations may have taken the member's key).
  await restoreCast();
  assertSuccess(await client(ts, cast.member).get('/users/me'));
}, 600_000);
