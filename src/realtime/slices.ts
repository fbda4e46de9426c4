import { streamsSlice, subscriptionsSlice } from '../core/channels/state';
import { usersSlice } from '../core/users/state';
import { realmEmojiSlice } from '../core/emoji/state';
import { maxMessageIdSlice, recentConversationsSlice, starredSlice, unreadSlice } from '../core/messages/state';
import { mutedTopicsSlice, userTopicsSlice } from '../core/user-topics/state';
import type { StateSlice } from './state';

/** Every feature's POST /register slice. Features add theirs here. */
export const stateSlices: StateSlice[] = [usersSlice, subscriptionsSlice, streamsSlice, realmEmojiSlice, maxMessageIdSlice, unreadSlice, starredSlice, recentConversationsSlice, userTopicsSlice, mutedTopicsSlice];
