import type { AppDeps } from '../deps';
import { ChannelFolder } from './model';
import { folderDict, ChannelFolderDict } from './view';

/** Every user may read the folders, guests included. */
export async function listFolders(deps: AppDeps, includeArchived: boolean): Promise<ChannelFolderDict[]> {
  const query = ChannelFolder.query(deps.knex).where('realm_id', deps.realmId).orderBy('id');
  if (!includeArchived) query.where('is_archived', false);
  return (await query).map(folderDict);
}
