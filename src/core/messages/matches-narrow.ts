import { isRowId } from '../../db/ids';
import type { AppDeps } from '../deps';
import type { User } from '../users/model';
import { buildQuery, searchMatches, selectRows } from './fetch';
import type { NarrowTerm } from './narrow-parse';
import { listParam } from '../../db/lists';

/**
 * GET /messages/matches_narrow: which of the given messages match a narrow, as Zulip's
 * messages_in_narrow answers it. Only messages the user received count (like Zulip, which reads
 * them through its user-message rows); each match carries `match_content` and `match_subject`,
 * highlighted when the narrow searches, else the rendered content and the HTML-escaped topic.
 */
export interface NarrowMatch {
  match_content: string;
  match_subject: string;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

export async function messagesMatchingNarrow(deps: AppDeps, user: User, messageIds: number[], narrow: NarrowTerm[]): Promise<Record<string, NarrowMatch>> {
  const ids = [...new Set(messageIds.filter(isRowId))];
  if (ids.length === 0) return {};
  const db = deps.knex;
  const inIds = { sql: 'um.message_id = ANY(?::int[])', params: [listParam(ids)], usesMessage: false };
  const { base, search } = await buildQuery(deps, db, user, narrow, false, () => [inIds], { joinMessages: true });
  const rows = await selectRows(db, base, '', [], 'ASC', ids.length);
  const highlighted = search
    ? await searchMatches(
        db,
        rows.map((r) => r.id),
        search,
      )
    : null;
  const out: Record<string, NarrowMatch> = {};
  for (const row of rows) {
    const message = row.message!;
    out[String(row.id)] = highlighted?.get(row.id) ?? { match_content: message.rendered_content, match_subject: escapeHtml(message.topic) };
  }
  return out;
}
