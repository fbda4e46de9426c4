import type { Config } from '../../config';
import type { User } from '../users/model';
import { userDict } from '../users/view';
import { BotType } from './constants';
import type { BotService } from './model';

/**
 * A bot as `realm_bots` and `realm_bot` events describe it to those who administer it. Its API key
 * is not part of it: keys are stored hashed, so the key is shown once, when created or regenerated.
 */
export interface BotDict {
  email: string;
  user_id: number;
  full_name: string;
  bot_type: number | null;
  is_active: boolean;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
  avatar_url: string;
  owner_id: number | null;
  services: ServiceDict[];
}

export interface ServiceDict {
  base_url: string;
  interface: number;
  token: string;
}

/** Names of the channels a bot's defaults point at. */
export type ChannelNames = Map<number, string>;

export function botAvatarUrl(config: Config, bot: User): string {
  return userDict(config, bot, bot, { clientGravatar: false, includeProfileData: false }).avatar_url as string;
}

export function servicesFor(bot: User, service: BotService | undefined): ServiceDict[] {
  if (bot.bot_type !== BotType.OUTGOING_WEBHOOK || !service) return [];
  return [{ base_url: service.base_url, interface: service.interface, token: service.token }];
}

export function botDict(config: Config, bot: User, service: BotService | undefined, channels: ChannelNames): BotDict {
  return {
    email: bot.delivery_email,
    user_id: bot.id,
    full_name: bot.full_name,
    bot_type: bot.bot_type,
    is_active: bot.is_active,
    default_sending_stream: channelName(channels, bot.default_sending_stream_id),
    default_events_register_stream: channelName(channels, bot.default_events_register_stream_id),
    default_all_public_streams: bot.default_all_public_streams,
    avatar_url: botAvatarUrl(config, bot),
    owner_id: bot.bot_owner_id,
    services: servicesFor(bot, service),
  };
}

export function channelName(channels: ChannelNames, id: number | null): string | null {
  return id === null ? null : (channels.get(id) ?? null);
}
