import { Knex } from 'knex';
import * as foundation from './20261121000000_foundation';
import * as groupsAndFolders from './20261121000100_groups_and_folders';
import * as channels from './20261121000600_channels';
import * as realmEmoji from './20261121000700_realm_emoji';
import * as messages from './20261121000800_messages';

/** Every migration, oldest first. Add new ones at the end; never reorder or rename. */
export const migrations: { name: string; module: Knex.Migration }[] = [
  { name: '20261121000000_foundation', module: foundation },
  { name: '20261121000100_groups_and_folders', module: groupsAndFolders },
  { name: '20261121000600_channels', module: channels },
  { name: '20261121000700_realm_emoji', module: realmEmoji },
  { name: '20261121000800_messages', module: messages },
];
