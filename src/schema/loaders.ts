import DataLoader from 'dataloader';
import { getChannelsByIdForViewer } from '../core/channels/queries';
import type { ChannelDict } from '../core/channels/view';
import { getUsersByIdForViewer } from '../core/users/queries';
import type { User } from '../core/users/model';
import type { UserDict } from '../core/users/view';
import type { GraphQLContext } from './context';

/**
 * Object links (`sender`, `channel`, `members`, ...) load through these, so that a page of
 * messages costs one users statement and one channels batch however many links it has. One set per
 * operation: nothing cached outlives it, and each is checked against its own viewer.
 */
export interface Loaders {
  users: DataLoader<number, UserDict | null>;
  channels: DataLoader<number, ChannelDict | null>;
}

const perOperation = new WeakMap<GraphQLContext, Loaders>();

export function loaders(ctx: GraphQLContext): Loaders {
  let found = perOperation.get(ctx);
  if (!found) {
    const viewer = ctx.user as User;
    found = {
      users: new DataLoader((ids) => getUsersByIdForViewer(ctx.deps, viewer, ids)),
      channels: new DataLoader((ids) => getChannelsByIdForViewer(ctx.deps, viewer, ids)),
    };
    perOperation.set(ctx, found);
  }
  return found;
}
