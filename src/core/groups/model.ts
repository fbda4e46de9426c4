import { Model } from 'objection';
import type { GroupSettingValue } from './setting-values';

/** A named user group: a system group standing for a role, or one the organization made. */
export class UserGroup extends Model {
  static tableName = 'user_groups';

  id!: number;
  realm_id!: number;
  name!: string;
  description!: string;
  is_system_group!: boolean;
  deactivated!: boolean;
  creator_id!: number | null;
  date_created!: Date | null;
  /** Group-setting values keyed by setting name; system groups leave it empty (all "nobody"). */
  settings!: Record<string, GroupSettingValue>;

  static get jsonAttributes(): string[] {
    return ['settings'];
  }
}
