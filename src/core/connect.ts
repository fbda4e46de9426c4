import { connectChannels } from './channels/connect';
import { connectGroups } from './groups/connect';
import { connectInvites } from './invites/connect';
import { connectMessages } from './messages/connect';
import { connectSettings } from './settings/connect';

/**
 * Connects features that answer questions for features they depend on (a group or folder in use,
 * an account being deactivated). Those features expose a registry; each answering feature
 * registers itself in its `connect.ts`, as does a feature that shapes its events per client (event
 * queue transforms). Idempotent; the server and the CLI call it before any
 * action runs.
 */
export function connectFeatures(): void {
  connectChannels();
  connectInvites();
  connectMessages();
  connectSettings();
  connectGroups();
}
