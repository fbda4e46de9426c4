import type { ChannelFolder } from './model';

/** The Zulip channel folder object. */
export interface ChannelFolderDict {
  id: number;
  name: string;
  description: string;
  rendered_description: string;
  creator_id: number | null;
  date_created: number;
  is_archived: boolean;
  /** Display position, 0-based (feature level 414). */
  order: number;
}

export function folderDict(folder: ChannelFolder): ChannelFolderDict {
  return {
    id: folder.id,
    name: folder.name,
    description: folder.description,
    rendered_description: folder.rendered_description,
    creator_id: folder.creator_id,
    date_created: Math.floor(new Date(folder.date_created).getTime() / 1000),
    is_archived: folder.is_archived,
    order: folder.order,
  };
}
