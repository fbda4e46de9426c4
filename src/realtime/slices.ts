import { usersSlice } from '../core/users/state';
import type { StateSlice } from './state';
import { draftsSlice } from '../core/drafts/state';
import { savedSnippetsSlice } from '../core/saved-snippets/state';
import { navigationViewsSlice } from '../core/navigation-views/state';

/** Every feature's POST /register slice. Features add theirs here. */
export const stateSlices: StateSlice[] = [usersSlice, draftsSlice, savedSnippetsSlice, navigationViewsSlice];
