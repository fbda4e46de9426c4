import type { AppDeps } from '../deps';
import type { UnitOfWork } from '../../db/unit-of-work';
import type { Stream } from '../channels/model';
import type { User } from '../users/model';

/**
 * Features that react to messages people send (outgoing webhooks) register here, since messages
 * cannot import them. A listener writes what the message causes in the message's own transaction
 * (so a crash cannot keep the message and lose the reaction); `wants` is asked first, on the
 * sending path, and must cost no statement in the common case, since a message nobody reacts to
 * is stored without a transaction of its own.
 */
export interface SentMessage {
  id: number;
  sender: User;
  /** Channel messages: the channel and topic; direct messages: null. */
  stream: Stream | null;
  topic: string;
  /** Direct messages: every participant, the sender included. */
  participants: User[];
  /** Users the message mentions by name or through a group (silent mentions excluded). */
  mentioned: ReadonlySet<number>;
}

export type UnsentMessage = Omit<SentMessage, 'id'>;

export interface MessageSentListener {
  /** Whether `write` has anything to write for this message. */
  wants(deps: AppDeps, message: UnsentMessage): Promise<boolean>;
  /** Runs in the message's transaction, once it is stored. */
  write(deps: AppDeps, uow: UnitOfWork, message: SentMessage): Promise<void>;
}

const listeners: MessageSentListener[] = [];

export function registerMessageSentListener(listener: MessageSentListener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

/** The listeners that have something to write for the message. */
export async function listenersFor(deps: AppDeps, message: UnsentMessage): Promise<MessageSentListener[]> {
  const out: MessageSentListener[] = [];
  for (const listener of listeners) if (await listener.wants(deps, message)) out.push(listener);
  return out;
}

export const hasMessageSentListeners = () => listeners.length > 0;
