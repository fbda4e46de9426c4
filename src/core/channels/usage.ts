import type { Knex } from 'knex';
import type { FolderUsageCheck } from '../channel-folders/usage';
import type { GroupUsageSource } from '../groups/usage';
import { valueUsesGroup } from '../groups/usage';
import { CHANNEL_PERMISSION_SETTING_NAMES } from './constants';
import { Stream } from './model';

/**
 * What the channels feature tells others about its use of their objects (registered at start, see
 * `connectChannels`).
 *
 * A user group named in an active channel's permission setting (directly or as a subgroup of an
 * anonymous value) cannot be deactivated; archived channels do not hold it, as in Zulip.
 */
export const channelGroupUsage: GroupUsageSource = {
  async objections(db: Knex, realmId: number, groupId: number) {
    const streams = await Stream.query(db).where({ realm_id: realmId, deactivated: false }).orderBy('id');
    const objections: Record<string, unknown>[] = [];
    for (const stream of streams) {
      const settings = CHANNEL_PERMISSION_SETTING_NAMES.filter((setting) => valueUsesGroup(stream[setting], groupId));
      if (settings.length > 0) objections.push({ type: 'channel', channel_id: stream.id, settings });
    }
    return objections;
  },
};

/** A folder holding any channel, archived ones included, cannot be archived. */
export const folderHoldsChannels: FolderUsageCheck = async (db, realmId, folderId) =>
  (await Stream.query(db).where({ realm_id: realmId, folder_id: folderId }).select('id').first()) !== undefined;
