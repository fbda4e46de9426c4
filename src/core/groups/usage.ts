import type { Knex } from 'knex';
import { GroupSettingValue, isAnonymous } from './setting-values';

/**
 * A group in use cannot be deactivated. Groups and organization settings are checked here; other
 * features whose settings hold group-setting values (channels) register a source that reports the
 * objections for their active objects, e.g. {type: "channel", channel_id, settings: [...]}.
 */
export interface GroupUsageSource {
  objections(db: Knex, realmId: number, groupId: number): Promise<Record<string, unknown>[]>;
}

const sources: GroupUsageSource[] = [];

export function registerGroupUsageSource(source: GroupUsageSource): void {
  if (!sources.includes(source)) sources.push(source);
}

export function groupUsageSources(): readonly GroupUsageSource[] {
  return sources;
}

/** Whether a setting value names the group directly or as a subgroup of an anonymous value. */
export function valueUsesGroup(value: GroupSettingValue, groupId: number): boolean {
  return isAnonymous(value) ? value.direct_subgroups.includes(groupId) : value === groupId;
}
