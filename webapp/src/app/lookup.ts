import type { NameLookup } from '../narrow/hash';
import { getApp } from '../state/store';

/** Names for URLs, from the store. */
export const lookup: NameLookup = {
  channelName: (id) => getApp().channels.get(id)?.name,
  userEmail: (id) => getApp().users.get(id)?.email,
};
