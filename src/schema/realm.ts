import { GraphQLJSON } from 'graphql-scalars';
import { Field, Int, ObjectType } from 'type-graphql';
import { REALM_SETTINGS, RealmSettingSpec } from '../core/realm/catalog';
import type { RealmSettingValues } from '../core/realm/values';
import { camelName } from './settings';

const scalarFor = (spec: RealmSettingSpec) => (spec.kind === 'group' ? GraphQLJSON : spec.kind === 'bool' ? Boolean : spec.kind === 'int' ? Int : String);

/** The organization's settings: one field per catalog entry, camelCased (waiting_period_threshold → waitingPeriodThreshold). */
@ObjectType('RealmSettings', { description: "The organization's settings, as POST /register reports them (realm_<name>)." })
export class RealmSettingsType {
  [key: string]: unknown;

  static from(values: RealmSettingValues): RealmSettingsType {
    const out = new RealmSettingsType();
    for (const [name, value] of Object.entries(values)) out[camelName(name)] = value;
    return out;
  }
}
for (const spec of REALM_SETTINGS) {
  const description =
    spec.kind === 'group'
      ? 'A group-setting value: a user group id, or {direct_members, direct_subgroups}.'
      : spec.choices
        ? `One of: ${spec.choices.join(', ')}.`
        : undefined;
  Field(() => scalarFor(spec), { nullable: spec.kind !== 'group' && spec.nullable, description })(RealmSettingsType.prototype, camelName(spec.name));
}
