import { usersSlice } from '../core/users/state';
import { settingsSlices } from '../core/settings/state';
import { presenceSlice } from '../core/presence/state';
import type { StateSlice } from './state';

/** Every feature's POST /register slice. Features add theirs here. */
export const stateSlices: StateSlice[] = [usersSlice, ...settingsSlices, presenceSlice];
