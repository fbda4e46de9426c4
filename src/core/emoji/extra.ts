/**
 * Emoji that ship with the server rather than with Unicode: today only `:zulip:`. Reactions
 * name them with the reaction type `zulip_extra_emoji` (the spec also calls the namespace
 * `service_extra_emoji`); their code is their name.
 */
export const EXTRA_EMOJI_REACTION_TYPES = ['zulip_extra_emoji', 'service_extra_emoji'] as const;

export interface ExtraEmoji {
  name: string;
  /** Image path relative to the server's URL. */
  url: string;
}

export const EXTRA_EMOJI: ReadonlyMap<string, ExtraEmoji> = new Map([
  ['zulip', { name: 'zulip', url: '/static/generated/emoji/images/emoji/unicode/zulip.png' }],
]);
