/** Zulip's bot types (UserProfile.DEFAULT_BOT ...) and outgoing-webhook interfaces (Service.GENERIC, SLACK). */
export const BotType = {
  GENERIC: 1,
  INCOMING_WEBHOOK: 2,
  OUTGOING_WEBHOOK: 3,
  EMBEDDED: 4,
} as const;

export const BotInterface = {
  GENERIC: 1,
  SLACK: 2,
} as const;

export const BOT_INTERFACES: readonly number[] = [BotInterface.GENERIC, BotInterface.SLACK];

/** Bot types users may create here (embedded bots need Zulip's bot runtime, which this server has not). */
export const CREATABLE_BOT_TYPES: readonly number[] = [BotType.GENERIC, BotType.INCOMING_WEBHOOK, BotType.OUTGOING_WEBHOOK];

export const isIncomingWebhookBot = (user: { is_bot: boolean; bot_type: number | null }) => user.is_bot && user.bot_type === BotType.INCOMING_WEBHOOK;
