import type { ZulipEvent } from '../../realtime/bus';

/**
 * user_group events on the bus are the modern form, carrying what older clients need:
 *
 * - deactivation: `update` with data.deactivated = true. A client that did not declare
 *   include_deactivated_groups gets {type: "user_group", op: "remove", group_id} instead.
 * - reactivation (PATCH with deactivated=false): `update` with data.deactivated = false and the full
 *   `group` object. Declaring clients get the update without `group`; the others get
 *   {type: "user_group", op: "add", group}.
 * - rename: `update` with data.name and a top-level `deactivated` (the group's state). The flag is
 *   always stripped; non-declaring clients get nothing when the group is deactivated.
 *
 * Every other user_group event is delivered as it is. Event queues and subscriptions call this per
 * client; null means "do not deliver".
 */
export function userGroupEventForClient(event: ZulipEvent, includeDeactivatedGroups: boolean): ZulipEvent | null {
  if (event.type !== 'user_group' || event.op !== 'update') return event;
  const data = (event.data ?? {}) as Record<string, unknown>;
  if (data.deactivated === true) {
    return includeDeactivatedGroups ? event : { type: 'user_group', op: 'remove', group_id: event.group_id };
  }
  if (data.deactivated === false && 'group' in event) {
    const { group, ...update } = event;
    return includeDeactivatedGroups ? update : { type: 'user_group', op: 'add', group };
  }
  if ('name' in data && 'deactivated' in event) {
    const { deactivated, ...update } = event;
    if (deactivated === true && !includeDeactivatedGroups) return null;
    return update;
  }
  return event;
}
