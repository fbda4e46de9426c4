import type { CustomProfileField } from './model';

/** The Zulip custom profile field object; display_in_profile_summary appears only when true. */
export interface CustomProfileFieldDict {
  id: number;
  name: string;
  type: number;
  hint: string;
  field_data: string;
  order: number;
  required: boolean;
  editable_by_user: boolean;
  use_for_user_matching: boolean;
  display_in_profile_summary?: true;
}

export function fieldDict(field: CustomProfileField): CustomProfileFieldDict {
  const dict: CustomProfileFieldDict = {
    id: field.id,
    name: field.name,
    type: field.field_type,
    hint: field.hint,
    field_data: field.field_data,
    order: field.order,
    required: field.required,
    editable_by_user: field.editable_by_user,
    use_for_user_matching: field.use_for_user_matching,
  };
  if (field.display_in_profile_summary) dict.display_in_profile_summary = true;
  return dict;
}

/** One entry of a user's profile_data. */
export interface ProfileDataEntry {
  value: string;
  rendered_value?: string;
}
