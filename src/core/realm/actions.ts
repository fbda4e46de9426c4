import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { ApiError, errors } from '../../errors';
import { requireAvailableVideoChatProvider } from '../calls/providers';
import { cachedSystemGroupIds } from '../channels/group-settings';
import { validateGroupSettingValue } from '../groups/access';
import { GroupSettingChange, GroupSettingValue, normalizeGroupSettingValue, sameGroupSettingValue } from '../groups/setting-values';
import { recomputeFullMembers } from '../groups/full-members';
import { apiGroupSettingValue } from '../groups/view';
import { activeUserIds } from '../users/access';
import type { User } from '../users/model';
import { isAdminRole, isOwnerRole } from '../users/roles';
import { renderStoredDescription } from '../markdown/description';
import { RealmGroupSpec, REALM_SETTINGS_BY_NAME } from './catalog';
import type { RealmSettingChanges } from './setting-input';
import { Realm } from './model';
import { loadRealmSettingValues } from './values';
import { WRITERS } from './writers';
import { checkWorkplaceUsersGroup } from './workplace-users-group';

/** Settings only owners may change (Zulip's update_realm). */
const OWNER_ONLY = new Set([
  'invite_required',
  'create_multiuse_invite_group',
  'can_create_groups',
  'can_invite_users_group',
  'can_manage_all_groups',
  'emails_restricted_to_domains',
  'disallow_disposable_email_addresses',
  'waiting_period_threshold',
  'message_retention_days',
]);

/** Settings announced as update_dict (Zulip's do_set_realm_property), the description with its rendering. */
const UPDATE_DICT_PROPERTIES = new Set(['allow_message_editing', 'message_content_edit_limit_seconds', 'description']);

/** Settings naming a channel; -1 means none. */
const CHANNEL_SETTINGS = new Set([
  'moderation_request_channel_id',
  'new_stream_announcements_stream_id',
  'signup_announcements_stream_id',
  'zulip_update_announcements_stream_id',
]);

export function requireRealmAdmin(actor: User): void {
  if (!isAdminRole(actor.role)) throw errors.mustBeAdmin();
}

/**
 * PATCH /realm: every requested setting is checked before any is stored, so a request succeeds or
 * fails as a whole. Unchanged values are skipped; each change is announced to every active user.
 * Returns the changed values as Zulip's response reports them.
 */
export async function updateRealmSettings(deps: AppDeps, actor: User, changes: RealmSettingChanges): Promise<Record<string, unknown>> {
  requireRealmAdmin(actor);
  if (Object.keys(changes).some((name) => OWNER_ONLY.has(name)) && !isOwnerRole(actor.role)) throw errors.mustBeOwner();
  // Only providers whose credentials this server has (Zulip's get_enabled_video_chat_providers).
  if (changes.video_chat_provider !== undefined) requireAvailableVideoChatProvider(deps.config, changes.video_chat_provider as number);
  return inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const systemGroups = await cachedSystemGroupIds(deps.knex, db, deps.realmId);
    const realm = await Realm.query(db).findById(deps.realmId).throwIfNotFound();
    const current = await loadRealmSettingValues(db, realm, systemGroups);
    const active = new Set(await activeUserIds(db, deps.realmId));

    const plain: [string, unknown][] = [];
    const groups: [string, GroupSettingValue][] = [];
    for (const [name, given] of Object.entries(changes)) {
      const requested = CHANNEL_SETTINGS.has(name) && (given as number) < 0 ? -1 : given;
      const spec = REALM_SETTINGS_BY_NAME.get(name)!;
      if (spec.kind === 'group') {
        const value = await checkGroupChange(
          db,
          deps.realmId,
          spec,
          requested as GroupSettingChange,
          current[name] as GroupSettingValue,
          active,
          systemGroups['role:nobody'],
        );
        // Restricting guests' view of users is not built: the setting stays at everyone, refused as
        // Zulip refuses it on plans without the feature.
        if (name === 'can_access_all_users_group' && value !== undefined && value !== systemGroups['role:everyone']) {
          throw errors.badRequest('Available on Zulip Cloud Plus. Upgrade to access.');
        }
        if (name === 'workplace_users_group' && value !== undefined) await checkWorkplaceUsersGroup(db, deps.realmId, value, systemGroups);
        if (value !== undefined) groups.push([name, value]);
        continue;
      }
      if (CHANNEL_SETTINGS.has(name)) await checkChannel(db, deps.realmId, requested as number);
      if (current[name] !== requested) plain.push([name, requested]);
    }

    const data: Record<string, unknown> = {};
    const recipients = [...active];
    for (const [name, value] of plain) {
      const spec = REALM_SETTINGS_BY_NAME.get(name)!;
      await WRITERS[spec.source](db, deps.realmId, name, value);
      const dict: Record<string, unknown> = { [name]: value };
      if (name === 'description')
        dict.rendered_description = await renderStoredDescription(db, deps.realmId, value as string, { realmUrl: deps.config.externalUrl });
      const event = UPDATE_DICT_PROPERTIES.has(name)
        ? { type: 'realm', op: 'update_dict', property: 'default', data: dict }
        : { type: 'realm', op: 'update', property: name, value };
      uow.emit(event, recipients);
      data[name] = typeof value === 'string' && !CHANNEL_SETTINGS.has(name) ? 'updated' : value;
    }
    // A new waiting period moves members in or out of role:fullmembers at once, as in Zulip.
    if (plain.some(([name]) => name === 'waiting_period_threshold')) await recomputeFullMembers(uow);
    for (const [name, value] of groups) {
      const spec = REALM_SETTINGS_BY_NAME.get(name)!;
      await WRITERS[spec.source](db, deps.realmId, name, value);
      const apiValue = apiGroupSettingValue(value, active);
      uow.emit({ type: 'realm', op: 'update_dict', property: 'default', data: { [name]: apiValue } }, recipients);
      data[name] = apiValue;
    }
    return data;
  });
}

async function checkGroupChange(
  db: Parameters<typeof validateGroupSettingValue>[0],
  realmId: number,
  spec: RealmGroupSpec,
  change: GroupSettingChange,
  currentValue: GroupSettingValue,
  active: Set<number>,
  nobodyId: number,
): Promise<GroupSettingValue | undefined> {
  const current = apiGroupSettingValue(currentValue, active);
  const requested = normalizeGroupSettingValue(change.new, nobodyId);
  // A change made against a stale view is refused, so two administrators do not overwrite each other.
  if (change.old !== undefined && !sameGroupSettingValue(normalizeGroupSettingValue(change.old, nobodyId), current)) {
    throw new ApiError('EXPECTATION_MISMATCH', "'old' value does not match the expected value.", 400);
  }
  if (sameGroupSettingValue(current, requested)) return undefined;
  return validateGroupSettingValue(db, realmId, requested, spec.name, {
    allowNobody: spec.allowNobody,
    allowEveryone: spec.allowEveryone,
    allowInternet: false,
    requireSystemGroup: spec.requireSystemGroup ?? false,
    allowedSystemGroups: [...(spec.allowedSystemGroups ?? [])],
    defaultValue: spec.default,
  });
}

async function checkChannel(db: Parameters<typeof validateGroupSettingValue>[0], realmId: number, channelId: number): Promise<void> {
  if (channelId < 0) return;
  const row = channelId <= 2147483647 ? await db('streams').where({ realm_id: realmId, id: channelId, deactivated: false }).first('id') : undefined;
  if (!row) throw errors.badRequest('Invalid channel ID');
}
