import { Model } from 'objection';

/** A field of the organization's user profiles. */
export class CustomProfileField extends Model {
  static tableName = 'custom_profile_fields';

  id!: number;
  realm_id!: number;
  name!: string;
  hint!: string;
  field_type!: number;
  /** JSON text for types 3 and 7, empty for the others. */
  field_data!: string;
  order!: number;
  display_in_profile_summary!: boolean;
  required!: boolean;
  editable_by_user!: boolean;
  /** Clients match users by their values of this field (only short text and external accounts). */
  use_for_user_matching!: boolean;
}

/** One user's value for one field. */
export class CustomProfileFieldValue extends Model {
  static tableName = 'custom_profile_field_values';

  id!: number;
  realm_id!: number;
  user_id!: number;
  field_id!: number;
  /** Text, or the JSON list of user ids for person pickers. */
  value!: string;
  rendered_value!: string | null;
}
