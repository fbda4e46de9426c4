import type { AppDeps } from '../deps';
import type { Stream } from '../channels/model';
import type { User } from '../users/model';
import { log } from '../../log';

/**
 * Features that react to messages people send (outgoing webhooks) register here, since messages
 * cannot import them. Listeners run after the message is stored and published, on the sending
 * path: they must be cheap and synchronous, and start any real work in the background.
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

export type MessageSentListener = (deps: AppDeps, message: SentMessage) => void;

const listeners: MessageSentListener[] = [];

export function registerMessageSentListener(listener: MessageSentListener): void {
  if (!listeners.includes(listener)) listeners.push(listener);
}

export function notifyMessageSent(deps: AppDeps, message: SentMessage): void {
  for (const listener of listeners) {
    try {
      listener(deps, message);
    } catch (error) {
      log().error(`message-sent listener failed: ${(error as Error).name}`);
    }
  }
}

export const hasMessageSentListeners = () => listeners.length > 0;
