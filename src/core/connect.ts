import { connectAccounts } from './accounts/connect';
import { connectBots } from './bots/connect';
import { connectChannels } from './channels/connect';
import { connectGroups } from './groups/connect';
import { connectInvites } from './invites/connect';
import { connectMessages } from './messages/connect';
import { connectPresence } from './presence/connect';
import { connectRealm } from './realm/connect';

/**
 * Connects features that answer questions for features they depend on (a group or folder in use,
 * an account being deactivated, how an event is shaped for each client). Those features expose a
 * registry; each answering feature registers itself in its `connect.ts`. Idempotent; the server and
 * the CLI call it before any action runs.
 */
export function connectFeatures(): void {
  connectChannels();
  connectInvites();
  connectMessages();
  connectGroups();
  connectPresence();
  connectBots();
  connectRealm();
  connectAccounts();
}
