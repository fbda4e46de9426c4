import type { RegisterState, StateSlice } from '../register/slice';
import { listFolders } from './queries';
import type { ChannelFolderDict } from './view';

/** channel_folders: every folder of the organization, archived ones included. */
export const channelFoldersSlice: StateSlice = {
  fetchTypes: ['channel_folders'],
  async fetch(deps) {
    return { channel_folders: await listFolders(deps, true) };
  },
  apply(state, event) {
    if (event.type !== 'channel_folder' || !Array.isArray(state.channel_folders)) return;
    applyChannelFolderEvent(state, event);
  },
};

export function applyChannelFolderEvent(state: RegisterState, event: Record<string, unknown>): void {
  const folders = state.channel_folders as ChannelFolderDict[];
  if (event.op === 'add') {
    const folder = event.channel_folder as ChannelFolderDict;
    if (!folders.some((f) => f.id === folder.id)) {
      folders.push({ ...folder });
      folders.sort((a, b) => a.id - b.id);
    }
  } else if (event.op === 'update') {
    const target = folders.find((f) => f.id === event.channel_folder_id);
    if (target) Object.assign(target, event.data);
  } else if (event.op === 'reorder') {
    (event.order as number[]).forEach((id, index) => {
      const target = folders.find((f) => f.id === id);
      if (target) target.order = index;
    });
  }
}
