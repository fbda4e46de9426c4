/** Zulip's custom profile field types. */
export const FieldType = {
  SHORT_TEXT: 1,
  LONG_TEXT: 2,
  SELECT: 3,
  DATE: 4,
  URL: 5,
  USER: 6,
  EXTERNAL_ACCOUNT: 7,
  PRONOUNS: 8,
} as const;

/** Register's custom_profile_field_types, in Zulip's order (by display name). */
export const FIELD_TYPE_DESCRIPTIONS: { keyword: string; id: number; name: string }[] = [
  { keyword: 'DATE', id: FieldType.DATE, name: 'Date' },
  { keyword: 'EXTERNAL_ACCOUNT', id: FieldType.EXTERNAL_ACCOUNT, name: 'External account' },
  { keyword: 'URL', id: FieldType.URL, name: 'Link' },
  { keyword: 'SELECT', id: FieldType.SELECT, name: 'List of options' },
  { keyword: 'PRONOUNS', id: FieldType.PRONOUNS, name: 'Pronouns' },
  { keyword: 'LONG_TEXT', id: FieldType.LONG_TEXT, name: 'Text (long)' },
  { keyword: 'SHORT_TEXT', id: FieldType.SHORT_TEXT, name: 'Text (short)' },
  { keyword: 'USER', id: FieldType.USER, name: 'Users' },
];

export const FIELD_TYPE_IDS: number[] = FIELD_TYPE_DESCRIPTIONS.map((t) => t.id);

/** Text types whose values are rendered as Markdown (rendered_value). */
export const isRenderable = (fieldType: number) => fieldType === FieldType.SHORT_TEXT || fieldType === FieldType.LONG_TEXT;

/** Types that can never be shown in the profile summary (paragraphs can since feature level 476). */
export const NOT_FOR_SUMMARY: number[] = [FieldType.USER];

/** Types whose values may help find users in @-mention suggestions (e.g. a GitHub username). */
export const USER_MATCHING_TYPES: number[] = [FieldType.SHORT_TEXT, FieldType.EXTERNAL_ACCOUNT];

export const NAME_MAX_LENGTH = 40;
export const HINT_MAX_LENGTH = 80;
export const MAX_DISPLAY_IN_PROFILE_SUMMARY_FIELDS = 2;

/** External account fields with a known site take their label from here. */
export const DEFAULT_EXTERNAL_ACCOUNTS: Record<string, { text: string; name: string; hint: string; url_pattern: string }> = {
  twitter: { text: 'Twitter', name: 'Twitter username', hint: '', url_pattern: 'https://twitter.com/%(username)s' },
  github: { text: 'GitHub', name: 'GitHub username', hint: '', url_pattern: 'https://github.com/%(username)s' },
};
