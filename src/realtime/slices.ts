import { realmSlice } from '../core/realm/state';
import { usersSlice } from '../core/users/state';
import type { StateSlice } from './state';

/** Every feature's POST /register slice. Features add theirs here. */
export const stateSlices: StateSlice[] = [usersSlice, realmSlice];
