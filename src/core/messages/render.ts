import type { Knex } from 'knex';
import type { AppDeps } from '../deps';
import { ChannelViewer, hasMetadataAccess } from '../channels/access';
import { Stream } from '../channels/model';
import { LinkableChannel, loadRenderContext, MentionSummary, renderMarkdown } from '../markdown';
import { anyOf, listParam } from '../../db/lists';

/** A message's rendering plus what the `has:` narrows and the mention flags need from it. */
export interface MessageRendering {
  html: string;
  mentions: MentionSummary;
  hasLink: boolean;
  hasImage: boolean;
  hasAttachment: boolean;
}

/** Channels the author may link to with `#**name**`: those they can see exist. */
export function channelLinkResolver(db: Knex, viewer: () => Promise<ChannelViewer>) {
  return async (names: string[]): Promise<LinkableChannel[]> => {
    const streams = await Stream.query(db)
      .where('realm_id', (await viewer()).user.realm_id)
      .whereRaw(...anyOf('name', names, 'text'));
    const v = await viewer();
    return streams.filter((s) => hasMetadataAccess(v, s)).map((s) => ({ id: s.id, name: s.name }));
  };
}

const LINK = /<a [^>]*href="(?!\/?#narrow)[^"]*"/;
const UPLOAD = /<a [^>]*href="[^"]*\/user_uploads\//;
const IMAGE = /<img (?![^>]*class="emoji)/;

export async function renderMessageContent(
  db: Knex,
  deps: Pick<AppDeps, 'config' | 'realmId'>,
  content: string,
  viewer: () => Promise<ChannelViewer>,
): Promise<MessageRendering> {
  const ctx = await loadRenderContext(db, deps.realmId, content, {
    realmUrl: deps.config.externalUrl,
    resolveChannels: channelLinkResolver(db, viewer),
  });
  const { html, mentions } = renderMarkdown(content, ctx);
  return { html, mentions, hasLink: LINK.test(html), hasImage: IMAGE.test(html), hasAttachment: UPLOAD.test(html) };
}

/** Active members of user groups, through subgroups too (loud group mentions flag them). */
export async function groupMemberIds(db: Knex, groupIds: number[]): Promise<Set<number>> {
  if (groupIds.length === 0) return new Set();
  const result = await db.raw(
    `WITH RECURSIVE sub(id) AS (
       SELECT id FROM user_groups WHERE id = ANY(?::int[])
       UNION
       SELECT s.subgroup_id FROM user_group_subgroups s JOIN sub ON s.supergroup_id = sub.id
     )
     SELECT DISTINCT m.user_id FROM user_group_members m JOIN sub ON m.group_id = sub.id`,
    [listParam(groupIds)],
  );
  return new Set((result.rows as { user_id: number }[]).map((r) => Number(r.user_id)));
}
