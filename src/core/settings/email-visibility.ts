import type { Knex } from 'knex';
import type { Config } from '../../config';
import type { UnitOfWork } from '../../db/unit-of-work';
import { User } from '../users/model';
import { canSeeDeliveryEmail, mediumAvatarUrl, placeholderEmail, userDict } from '../users/view';

/**
 * Who sees which address of a user. The API email each viewer gets is the real address when the
 * user's email_address_visibility lets that viewer see it, and a placeholder otherwise; events
 * that carry an email are therefore split by what each recipient may see.
 */
export type Viewer = Pick<User, 'id' | 'role'>;

/** Active users of the realm (at most `limit` of them, when given). */
export async function activeViewers(db: Knex, realmId: number, limit?: number): Promise<Viewer[]> {
  const query = db('users').where({ realm_id: realmId, is_active: true }).select('id', 'role');
  if (limit !== undefined) query.limit(limit);
  return query;
}

/** Recipients grouped by the API email of `target` they see. */
export function groupByApiEmail(config: Config, target: User, viewers: Viewer[]): { email: string; userIds: number[] }[] {
  const seeing: number[] = [];
  const hidden: number[] = [];
  for (const viewer of viewers) (canSeeDeliveryEmail(viewer, target) ? seeing : hidden).push(viewer.id);
  const groups: { email: string; userIds: number[] }[] = [];
  if (seeing.length > 0) groups.push({ email: target.delivery_email, userIds: seeing });
  if (hidden.length > 0) groups.push({ email: placeholderEmail(config, target.id), userIds: hidden });
  return groups;
}

/**
 * Events for a change of a user's email_address_visibility. Viewers who gain or lose sight of the
 * real address learn the new `delivery_email`, the API email they now see (`new_email`), and the
 * avatar URL (which a client_gravatar client computes from the address only when it can see it).
 */
export function emitEmailVisibilityChange(uow: UnitOfWork, config: Config, viewers: Viewer[], before: User, after: User): void {
  const gained: number[] = [];
  const lost: number[] = [];
  for (const viewer of viewers) {
    if (viewer.id === after.id) continue;
    const could = canSeeDeliveryEmail(viewer, before);
    const can = canSeeDeliveryEmail(viewer, after);
    if (could !== can) (can ? gained : lost).push(viewer.id);
  }
  emitAddressSight(uow, config, after, gained, true);
  emitAddressSight(uow, config, after, lost, false);
}

/**
 * Tells `recipients` that they now see (`visible`) or no longer see `target`'s real address: its
 * `delivery_email`, the API email they now see (`new_email`), and the avatar URL (which a
 * client_gravatar client computes from the address only when it can see it).
 */
export function emitAddressSight(uow: UnitOfWork, config: Config, target: User, recipients: number[], visible: boolean): void {
  if (recipients.length === 0) return;
  const avatar = avatarFields(config, target);
  const deliveryEmail = visible ? target.delivery_email : null;
  const apiEmail = visible ? target.delivery_email : placeholderEmail(config, target.id);
  uow.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, delivery_email: deliveryEmail } }, recipients);
  uow.emit({ type: 'realm_user', op: 'update', person: { user_id: target.id, new_email: apiEmail } }, recipients);
  uow.emit({ type: 'realm_user', op: 'update', person: avatar }, recipients);
}

/** The avatar of a realm_user update, as a client that does not compute gravatars needs it. */
export function avatarFields(config: Config, target: User): Record<string, unknown> {
  const avatarUrl = userDict(config, null, target, { clientGravatar: false, includeProfileData: false }).avatar_url as string;
  return {
    avatar_source: target.avatar_source,
    avatar_url: avatarUrl,
    avatar_url_medium: mediumAvatarUrl(avatarUrl),
    avatar_version: target.avatar_version,
    user_id: target.id,
  };
}
