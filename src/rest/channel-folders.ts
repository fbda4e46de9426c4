import { createFolder, reorderFolders, updateFolder } from '../core/channel-folders/actions';
import { MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH, MAX_CHANNEL_FOLDER_NAME_LENGTH } from '../core/channel-folders/limits';
import { listFolders } from '../core/channel-folders/queries';
import { requireAdmin } from '../core/users/access';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

// NUL is let through so the name check can answer with Zulip's "Invalid character" message.
const folderName = () => p.string({ maxLength: MAX_CHANNEL_FOLDER_NAME_LENGTH, allowNul: true });
const folderDescription = () => p.string({ maxLength: MAX_CHANNEL_FOLDER_DESCRIPTION_LENGTH });

export const channelFolderRoutes: Route[] = [
  {
    method: 'POST',
    path: '/channel_folders/create',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { name: folderName(), description: folderDescription() },
      handler: async ({ deps, user, params }) => ({ channel_folder_id: await createFolder(deps, user, params) }),
    }),
  },
  {
    method: 'GET',
    path: '/channel_folders',
    endpoint: endpoint({
      params: { include_archived: p.bool().default(false) },
      handler: async ({ deps, params }) => ({ channel_folders: await listFolders(deps, params.include_archived) }),
    }),
  },
  {
    method: 'PATCH',
    path: '/channel_folders',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: { order: p.intList() },
      handler: async ({ deps, user, params }) => {
        await reorderFolders(deps, user, params.order);
      },
    }),
  },
  {
    method: 'PATCH',
    path: '/channel_folders/:channel_folder_id',
    endpoint: endpoint({
      guard: ({ user }) => requireAdmin(user),
      params: {
        channel_folder_id: p.path.int(),
        name: folderName().optional(),
        description: folderDescription().optional(),
        is_archived: p.bool().optional(),
      },
      handler: async ({ deps, user, params }) => {
        await updateFolder(deps, user, params.channel_folder_id, {
          name: params.name,
          description: params.description,
          isArchived: params.is_archived,
        });
      },
    }),
  },
];
