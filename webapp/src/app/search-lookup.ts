import type { SearchLookup } from '../narrow/search';
import { getApp } from '../state/store';

/** Names, emails and ids for the search box, from the store. */
export const searchLookup: SearchLookup = {
  channelId: (name) => {
    const wanted = name.toLowerCase();
    for (const c of getApp().channels.values()) if (c.name.toLowerCase() === wanted) return c.stream_id;
    return undefined;
  },
  channelName: (id) => getApp().channels.get(id)?.name,
  userId: (text) => {
    const wanted = text.toLowerCase();
    if (wanted === 'me') return getApp().me;
    const users = [...getApp().users.values()];
    const byEmail = users.find((u) => u.email.toLowerCase() === wanted);
    if (byEmail) return byEmail.user_id;
    const byName = users.filter((u) => u.full_name.toLowerCase() === wanted);
    return byName.length === 1 ? byName[0].user_id : undefined;
  },
  userEmail: (id) => getApp().users.get(id)?.email,
};
