import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { isUniqueViolation } from '../../db/connect';
import { inTransaction, UnitOfWork } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { channelLinkResolver } from '../channels/links';
import { renderStoredDescription } from '../markdown';
import { activeUserIds, requireAdmin } from '../users/access';
import type { User } from '../users/model';
import { ChannelFolder } from './model';
import { folderInUse } from './usage';
import { folderDict } from './view';
import { isRowId } from '../../db/ids';

/** The only code that changes channel folders; administrators only. Every change tells all active users. */

const NOT_PRINTABLE = /[\p{Cc}\p{Cs}\p{Cn}]/u;
const nameInUse = () => errors.badRequest('Channel folder name already in use');

async function checkFolderName(trx: Knex, realmId: number, name: string): Promise<string> {
  if (name.trim() === '') throw errors.badRequest("Channel folder name can't be empty.");
  const position = [...name].findIndex((c) => NOT_PRINTABLE.test(c));
  if (position >= 0) throw errors.badRequest(`Invalid character in channel folder name, at position ${position + 1}.`);
  // Names are unique regardless of case, archived folders included.
  const taken = await ChannelFolder.query(trx).where('realm_id', realmId).whereRaw('lower(name) = lower(?)', [name]).first();
  if (taken) throw nameInUse();
  return name;
}

/** Descriptions are Markdown; channel links in them resolve as the administrator writing them sees channels. */
function renderFolderDescription(deps: AppDeps, db: Knex, writer: User, description: string): Promise<string> {
  return renderStoredDescription(db, deps.realmId, description, {
    realmUrl: deps.config.externalUrl,
    resolveChannels: channelLinkResolver(db, writer),
  });
}

async function emitToAll(uow: UnitOfWork, event: Record<string, unknown> & { type: string }): Promise<void> {
  uow.emit(event, await activeUserIds(uow.trx, uow.realmId));
}

export async function createFolder(deps: AppDeps, actor: User, input: { name: string; description: string }): Promise<number> {
  requireAdmin(actor);
  return inTransaction(deps, deps.realmId, async (uow) => {
    const name = await checkFolderName(uow.trx, deps.realmId, input.name);
    const count = await ChannelFolder.query(uow.trx).where('realm_id', deps.realmId).resultSize();
    let folder: ChannelFolder;
    try {
      folder = await ChannelFolder.query(uow.trx).insertAndFetch({
        realm_id: deps.realmId,
        name,
        description: input.description,
        rendered_description: await renderFolderDescription(deps, uow.trx, actor, input.description),
        is_archived: false,
        // New folders go last.
        order: count,
        creator_id: actor.id,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameInUse();
      throw error;
    }
    await emitToAll(uow, { type: 'channel_folder', op: 'add', channel_folder: folderDict(folder) });
    return folder.id;
  });
}

export interface FolderChanges {
  name?: string;
  description?: string;
  isArchived?: boolean;
}

export async function updateFolder(deps: AppDeps, actor: User, folderId: number, changes: FolderChanges): Promise<void> {
  requireAdmin(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const trx = uow.trx;
    const folder = isRowId(folderId) ? await ChannelFolder.query(trx).findOne({ realm_id: deps.realmId, id: folderId }).forUpdate() : undefined;
    if (!folder) throw errors.badRequest('Invalid channel folder ID');
    const update = async (patch: Partial<ChannelFolder>, data: Record<string, unknown>) => {
      try {
        await ChannelFolder.query(trx).patch(patch).where('id', folder.id);
      } catch (error) {
        if (isUniqueViolation(error)) throw nameInUse();
        throw error;
      }
      await emitToAll(uow, { type: 'channel_folder', op: 'update', channel_folder_id: folder.id, data });
    };
    if (changes.name !== undefined && changes.name !== folder.name) {
      const name = await checkFolderName(trx, deps.realmId, changes.name);
      await update({ name }, { name });
    }
    if (changes.description !== undefined && changes.description !== folder.description) {
      const rendered = await renderFolderDescription(deps, trx, actor, changes.description);
      await update({ description: changes.description, rendered_description: rendered }, { description: changes.description, rendered_description: rendered });
    }
    if (changes.isArchived !== undefined && changes.isArchived !== folder.is_archived) {
      if (changes.isArchived && (await folderInUse(trx, deps.realmId, folder.id))) {
        throw errors.badRequest('You need to remove all the channels from this folder to archive it.');
      }
      await update({ is_archived: changes.isArchived }, { is_archived: changes.isArchived });
    }
  });
}

/** PATCH /channel_folders: `order` lists folder ids in display order; every folder must appear. */
export async function reorderFolders(deps: AppDeps, actor: User, order: number[]): Promise<void> {
  requireAdmin(actor);
  await inTransaction(deps, deps.realmId, async (uow) => {
    const position = new Map<number, number>();
    order.forEach((id, index) => position.set(id, index));
    const folders = await ChannelFolder.query(uow.trx).where('realm_id', deps.realmId).forUpdate();
    if (folders.some((f) => !position.has(f.id))) throw errors.badRequest('Invalid order mapping.');
    for (const folder of folders) {
      await ChannelFolder.query(uow.trx)
        .patch({ order: position.get(folder.id)! })
        .where('id', folder.id);
    }
    await emitToAll(uow, { type: 'channel_folder', op: 'reorder', order });
  });
}
