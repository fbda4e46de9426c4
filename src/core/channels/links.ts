import type { Knex } from 'knex';
import { inParallel } from '../../db/in-parallel';
import type { LinkableChannel } from '../markdown/context';
import type { User } from '../users/model';
import { hasMetadataAccess, loadViewer } from './access';
import { Stream } from './model';
import { anyOf } from '../../db/lists';

/**
 * The channels `#**name**` may link to in Markdown someone writes: active channels, by exact name,
 * that the writer can see exist. Any other name stays text, so a link never reveals a private
 * channel to its reader. This is the `resolveChannels` hook of `loadRenderContext`.
 */
export function channelLinkResolver(db: Knex, writer: Pick<User, 'id' | 'role' | 'realm_id' | 'is_bot' | 'bot_owner_id'>) {
  return async (names: string[]): Promise<LinkableChannel[]> => {
    if (names.length === 0) return [];
    const [streams, viewer] = await inParallel(db, [
      async () =>
        Stream.query(db)
          .where({ realm_id: writer.realm_id, deactivated: false })
          .whereRaw(...anyOf('name', [...new Set(names)], 'text')),
      () => loadViewer(db, writer),
    ] as const);
    return streams.filter((s) => hasMetadataAccess(viewer, s)).map((s) => ({ id: s.id, name: s.name }));
  };
}
