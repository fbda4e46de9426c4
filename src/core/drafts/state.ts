import type { StateSlice } from '../register/slice';
import { draftsSyncEnabled } from './access';
import { Draft } from './model';
import { draftDict, DraftDict } from './view';

/** How many drafts POST /register returns at most, newest edit first. */
export const MAX_DRAFTS_IN_REGISTER = 1000;

/** `drafts`: the user's drafts, most recently edited first. */
export const draftsSlice: StateSlice = {
  fetchTypes: ['drafts'],
  async fetch(deps, user) {
    if (!(await draftsSyncEnabled(deps.knex, user))) return { drafts: [] };
    const drafts = await Draft.query(deps.knex)
      .where({ realm_id: deps.realmId, user_id: user.id })
      .orderBy([
        { column: 'last_edit_time', order: 'desc' },
        { column: 'id', order: 'desc' },
      ])
      .limit(MAX_DRAFTS_IN_REGISTER);
    return { drafts: drafts.map(draftDict) };
  },
  apply(state, event) {
    if (event.type !== 'drafts') return;
    const drafts = state.drafts as DraftDict[];
    if (event.op === 'add') {
      for (const draft of event.drafts as DraftDict[]) {
        if (!drafts.some((d) => d.id === draft.id)) drafts.push(draft);
      }
    } else if (event.op === 'update') {
      const draft = event.draft as DraftDict;
      const index = drafts.findIndex((d) => d.id === draft.id);
      if (index >= 0) drafts[index] = draft;
    } else if (event.op === 'remove') {
      state.drafts = drafts.filter((d) => d.id !== event.draft_id);
    }
  },
};
