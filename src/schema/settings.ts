import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { REALM_DEFAULT_SETTINGS, SETTINGS, SettingSpec, SettingsMap } from '../core/settings/catalog';

/**
 * GraphQL types of the settings feature. Their setting fields come from the same catalog as the
 * REST parameters, with camelCase names (color_scheme → colorScheme).
 */
export const camelName = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

const scalarFor = (spec: SettingSpec) => (spec.kind === 'bool' ? Boolean : spec.kind === 'int' ? Int : String);

function addSettingFields(target: object, specs: readonly SettingSpec[], nullable: boolean): void {
  for (const spec of specs) {
    const choices = spec.choices ? `One of: ${spec.choices.join(', ')}.` : undefined;
    Field(() => scalarFor(spec), { nullable, description: choices })(target, camelName(spec.name));
  }
}

@ObjectType('UserSettings', { description: 'Your personal preference settings.' })
export class UserSettingsType {
  [key: string]: unknown;
  @Field({ description: 'IANA time zone of your profile; empty when unset.' }) timezone!: string;

  static from(settings: SettingsMap, timezone: string): UserSettingsType {
    const out = new UserSettingsType();
    for (const [name, value] of Object.entries(settings)) out[camelName(name)] = value;
    out.timezone = timezone;
    return out;
  }
}
addSettingFields(UserSettingsType.prototype, SETTINGS, false);

@ObjectType('RealmUserSettingsDefaults', { description: "The organization's default settings for new users." })
export class RealmUserSettingsDefaultsType {
  [key: string]: unknown;

  static from(settings: SettingsMap): RealmUserSettingsDefaultsType {
    const out = new RealmUserSettingsDefaultsType();
    for (const [name, value] of Object.entries(settings)) out[camelName(name)] = value;
    return out;
  }
}
addSettingFields(RealmUserSettingsDefaultsType.prototype, SETTINGS, false);

/** Input objects hold camelCase fields; actions take the catalog's names. */
export function settingsFromInput(input: object, specs: readonly SettingSpec[]): Record<string, unknown> {
  const values = input as Record<string, unknown>;
  return Object.fromEntries(specs.map((s) => [s.name, values[camelName(s.name)]]).filter(([, v]) => v !== undefined && v !== null));
}

@InputType({ description: 'Settings to change; omitted fields stay as they are.' })
export class UpdateSettingsInput {
  [key: string]: unknown;
  @Field({ nullable: true }) fullName?: string;
  @Field({ nullable: true, description: 'An IANA time zone name.' }) timezone?: string;
  @Field({ nullable: true, description: 'Required to set newPassword.' }) oldPassword?: string;
  @Field({ nullable: true }) newPassword?: string;
  @Field({ nullable: true, description: 'A new address; it takes effect once the link sent to it is opened.' }) email?: string;
}
addSettingFields(UpdateSettingsInput.prototype, SETTINGS, true);

@InputType({ description: 'Defaults to change for future accounts; existing accounts keep their settings.' })
export class UpdateRealmUserSettingsDefaultsInput {
  [key: string]: unknown;
}
addSettingFields(UpdateRealmUserSettingsDefaultsInput.prototype, REALM_DEFAULT_SETTINGS, true);

@InputType({ description: 'Whose settings an administrator changes: users by id, and members of groups (recursively). Bots are left out.' })
export class TargetUsersInput {
  @Field(() => [Int], { nullable: true }) userIds?: number[] | null;
  @Field(() => [Int], { nullable: true }) groupIds?: number[] | null;
  @Field({ description: 'Leave alone, setting by setting, the users who once changed that setting themselves.' }) skipIfAlreadyEdited!: boolean;
}

@InputType({ description: 'Settings to change for other users; their privacy settings (e.g. sendReadReceipts) are refused.' })
export class UpdateOtherUsersSettingsInput {
  [key: string]: unknown;
}
addSettingFields(UpdateOtherUsersSettingsInput.prototype, SETTINGS, true);
