import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import type { User } from '../users/model';
import { findOwnDraft, requireDraftsSync, resolveDraftChannel, resolveDraftRecipients } from './access';
import { Draft, DraftType } from './model';
import { MAX_TOPIC_LENGTH, normalizeContent, SubmittedDraft, truncate } from './validation';
import { draftDict } from './view';

interface DraftRow {
  type: DraftType;
  to: number[];
  topic: string;
  content: string;
  last_edit_time: Date;
}

/** Turns a well-formed submitted draft into what is stored, with Zulip's checks in its order. */
async function prepareDraft(deps: AppDeps, db: Knex, user: User, draft: SubmittedDraft): Promise<DraftRow> {
  const content = normalizeContent(draft.content);
  let seconds = draft.timestamp ?? Date.now() / 1000;
  seconds = Math.round(seconds * 1e6) / 1e6;
  if (seconds < 0) throw errors.badRequest('Timestamp must not be negative.');
  const last_edit_time = new Date(seconds * 1000);

  if (draft.type === 'stream') {
    const topic = truncate(draft.topic, MAX_TOPIC_LENGTH, '...');
    if (topic.includes('\u0000')) throw errors.badRequest('Topic must not contain null bytes');
    const channelId = await resolveDraftChannel(db, user, draft.to);
    return { type: 'stream', to: [channelId], topic, content, last_edit_time };
  }
  if (draft.type === 'private' && draft.to.length > 0) {
    const to = await resolveDraftRecipients(db, deps.config, user, draft.to);
    return { type: 'private', to, topic: '', content, last_edit_time };
  }
  // Unaddressed, or a direct message with nobody chosen yet: stored (and shown) as unaddressed.
  return { type: '', to: [], topic: '', content, last_edit_time };
}

const stored = (row: DraftRow) => ({ ...row, to: JSON.stringify(row.to) as unknown as number[] });

/** POST /drafts: the new ids, in the order the drafts were submitted. */
export async function createDrafts(deps: AppDeps, user: User, drafts: SubmittedDraft[]): Promise<number[]> {
  return inTransaction(deps, deps.realmId, async (uow) => {
    await requireDraftsSync(uow.trx, user);
    const rows: DraftRow[] = [];
    for (const draft of drafts) rows.push(await prepareDraft(deps, uow.trx, user, draft));
    if (rows.length === 0) return [];
    const created: Draft[] = [];
    for (const row of rows) {
      created.push(await Draft.query(uow.trx).insertAndFetch({ realm_id: deps.realmId, user_id: user.id, ...stored(row) }));
    }
    uow.emit({ type: 'drafts', op: 'add', drafts: created.map(draftDict) }, [user.id]);
    return created.map((d) => d.id);
  });
}

/** PATCH /drafts/{id}: replaces the draft's content and addressing. */
export async function editDraft(deps: AppDeps, user: User, draftId: number, draft: SubmittedDraft): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    await requireDraftsSync(uow.trx, user);
    const existing = await findOwnDraft(uow.trx, user, draftId);
    const row = await prepareDraft(deps, uow.trx, user, draft);
    const updated = await Draft.query(uow.trx).patchAndFetchById(existing.id, stored(row));
    uow.emit({ type: 'drafts', op: 'update', draft: draftDict(updated) }, [user.id]);
  });
}

export async function deleteDraft(deps: AppDeps, user: User, draftId: number): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    await requireDraftsSync(uow.trx, user);
    const existing = await findOwnDraft(uow.trx, user, draftId);
    await Draft.query(uow.trx).deleteById(existing.id);
    uow.emit({ type: 'drafts', op: 'remove', draft_id: existing.id }, [user.id]);
  });
}

/**
 * Drops every draft of the user, without events: the settings feature calls this when they turn
 * drafts synchronization off, after which their drafts live only in their clients (as in Zulip).
 */
export async function deleteAllDrafts(db: Knex, realmId: number, userId: number): Promise<void> {
  await Draft.query(db).delete().where({ realm_id: realmId, user_id: userId });
}
