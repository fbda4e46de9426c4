import { connectFeatures } from '../../src/core/connect';
import type { QueueDescriptor } from '../../src/realtime/descriptor';
import { NO_CAPABILITIES } from '../../src/realtime/capabilities';
import { eventsForQueue, registerEventTransform } from '../../src/realtime/transforms';

const queue = (overrides: Partial<QueueDescriptor> = {}): QueueDescriptor => ({
  id: 'q',
  realmId: 1,
  userId: 1,
  userEmail: 'me@example.com',
  eventTypes: null,
  narrow: [],
  allPublicStreams: false,
  applyMarkdown: false,
  clientGravatar: false,
  slimPresence: false,
  capabilities: { ...NO_CAPABILITIES },
  timeoutSecs: 600,
  createdAt: 0,
  ...overrides,
});

const published = {
  type: 'presence',
  user_id: 7,
  email: 'a@example.com',
  server_timestamp: 1700000000.5,
  presence: { website: { client: 'website', status: 'active', timestamp: 1700000000, pushable: false } },
  presences: { '7': { active_timestamp: 1700000000, idle_timestamp: 1700000000 } },
};

test('registering the same transform again changes nothing', () => {
  let calls = 0;
  const counting = (event: { type: string }) => {
    calls += 1;
    return [event];
  };
  registerEventTransform('counted', counting);
  registerEventTransform('counted', counting);
  expect(eventsForQueue({ realmId: 1, userIds: [1], event: { type: 'counted' } }, queue())).toEqual([{ type: 'counted' }]);
  expect(calls).toBe(1);
});

test('connecting the features twice shapes each presence event once, for each kind of client', () => {
  connectFeatures();
  connectFeatures();
  const delivery = { realmId: 1, userIds: [1], event: published };
  const modern = { type: 'presence', presences: published.presences };
  const legacy = { type: 'presence', user_id: 7, email: 'a@example.com', server_timestamp: 1700000000.5, presence: published.presence };
  const { email: _email, ...slimLegacy } = legacy;
  const simplified = { ...NO_CAPABILITIES, simplified_presence_events: true };
  expect(eventsForQueue(delivery, queue({ capabilities: simplified }))).toEqual([modern]);
  expect(eventsForQueue(delivery, queue({ capabilities: simplified, slimPresence: true }))).toEqual([modern]);
  expect(eventsForQueue(delivery, queue())).toEqual([legacy]);
  expect(eventsForQueue(delivery, queue({ slimPresence: true }))).toEqual([slimLegacy]);
});
