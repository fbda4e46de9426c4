import type { Knex } from 'knex';
import type { Stream } from '../channels/model';
import type { SenderTopicState } from './send-hooks';

/**
 * What sending to a channel last read, remembered per database so that the next message from the
 * same sender to the same topic needs a single statement: the channel row (as PostgreSQL prints
 * it), its active subscribers and the sender's state in the topic. None of it is trusted: the
 * statement storing the message inserts nothing unless the channel's row is unchanged, and the
 * send then forgets the snapshot and reads afresh. The row covers the rest because its
 * `send_state_version` changes with the channel's subscriptions, its subscribers' accounts, topic
 * policies and topics emptied (triggers: migrations/20261122010000_channel_send_state_version.ts).
 * So no event has to keep this current, and servers sharing a database cannot serve each other
 * stale data. A new input to sending that can change apart from those needs a trigger there too.
 */
export interface SendSnapshot {
  stream: Stream;
  /** `streams::text` of the channel's row when it was read. */
  rowText: string;
  /** The channel's active subscribers. */
  subscriberIds: number[];
  senderTopic: SenderTopicState;
}

type ChannelSnapshot = Omit<SendSnapshot, 'senderTopic'>;

// Enough for every active channel and sender-topic pair of a large organization; past these the
// oldest entries go (Maps iterate in insertion order). Subscriber lists are bounded by their total
// length, so that a few huge channels cannot hold much memory (about 4 bytes per id).
const MAX_CHANNELS = 2_000;
const MAX_SUBSCRIBER_IDS = 500_000;
const MAX_SENDER_TOPICS = 20_000;

class Snapshots {
  private readonly channels = new Map<number, ChannelSnapshot>();
  private subscriberIds = 0;
  /** The id a channel name (as the client wrote it) resolved to. */
  readonly idsByName = new Map<string, number>();
  readonly senderTopics = new Map<string, SenderTopicState>();

  channel(streamId: number): ChannelSnapshot | undefined {
    return this.channels.get(streamId);
  }

  setChannel(streamId: number, snapshot: ChannelSnapshot): void {
    this.deleteChannel(streamId);
    this.channels.set(streamId, snapshot);
    this.subscriberIds += snapshot.subscriberIds.length;
    while (this.channels.size > 1 && (this.channels.size > MAX_CHANNELS || this.subscriberIds > MAX_SUBSCRIBER_IDS)) {
      this.deleteChannel(this.channels.keys().next().value as number);
    }
  }

  deleteChannel(streamId: number): void {
    const old = this.channels.get(streamId);
    if (!old) return;
    this.channels.delete(streamId);
    this.subscriberIds -= old.subscriberIds.length;
  }
}

const byDatabase = new WeakMap<Knex, Snapshots>();

function snapshotsOf(knex: Knex): Snapshots {
  let found = byDatabase.get(knex);
  if (!found) byDatabase.set(knex, (found = new Snapshots()));
  return found;
}

function bounded<K, V>(map: Map<K, V>, key: K, value: V, max: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
}

const senderTopicKey = (senderId: number, streamId: number, topic: string) => `${senderId}:${streamId}:${topic.toLowerCase()}`;

/** The snapshot for a message to `channel` (an id or a name) and `topic`, if one is remembered. */
export function recallSendSnapshot(knex: Knex, channel: number | string, senderId: number, topic: string): SendSnapshot | undefined {
  const snapshots = byDatabase.get(knex);
  if (!snapshots) return undefined;
  const streamId = typeof channel === 'number' ? channel : snapshots.idsByName.get(channel.trim());
  const found = streamId === undefined ? undefined : snapshots.channel(streamId);
  const senderTopic = found && snapshots.senderTopics.get(senderTopicKey(senderId, found.stream.id, topic));
  return found && senderTopic ? { ...found, senderTopic } : undefined;
}

/** Remembers what a send read, with the sender's state in the topic as it is after the message. */
export function rememberSendSnapshot(knex: Knex, channel: number | string, senderId: number, topic: string, snapshot: SendSnapshot): void {
  const snapshots = snapshotsOf(knex);
  const { senderTopic, ...channelSnapshot } = snapshot;
  const streamId = snapshot.stream.id;
  if (typeof channel === 'string') bounded(snapshots.idsByName, channel.trim(), streamId, MAX_CHANNELS);
  snapshots.setChannel(streamId, channelSnapshot);
  bounded(snapshots.senderTopics, senderTopicKey(senderId, streamId, topic), senderTopic, MAX_SENDER_TOPICS);
}

/** Drops a snapshot the database no longer matches. */
export function forgetSendSnapshot(knex: Knex, channel: number | string, senderId: number, topic: string): void {
  const snapshots = byDatabase.get(knex);
  if (!snapshots) return;
  const streamId = typeof channel === 'number' ? channel : snapshots.idsByName.get(channel.trim());
  if (typeof channel === 'string') snapshots.idsByName.delete(channel.trim());
  if (streamId === undefined) return;
  snapshots.deleteChannel(streamId);
  snapshots.senderTopics.delete(senderTopicKey(senderId, streamId, topic));
}
