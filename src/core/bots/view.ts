import type { Config } from '../../config';
import type { User } from '../users/model';
import { userDict } from '../users/view';
import { BotType } from './constants';
import type { BotService } from './model';

/**
 * A bot as `realm_bots` and `realm_bot` events describe it to those who administer it: only its
 * configuration, since Zulip 12.0 (feature level 474); its name, address, type, avatar, owner and
 * whether it is active are in its user object. Its API key is fetched with GET /bots/{bot_id}/api_key.
 */
export interface BotDict {
  user_id: number;
  default_sending_stream: string | null;
  default_events_register_stream: string | null;
  default_all_public_streams: boolean;
  services: ServiceDict[];
}

/** A bot with its account's fields besides, as GraphQL shows it. */
export interface BotDetails extends BotDict {
  email: string;
  full_name: string;
  bot_type: number | null;
  is_active: boolean;
  avatar_url: string;
  owner_id: number | null;
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

export function botDict(bot: User, service: BotService | undefined, channels: ChannelNames): BotDict {
  return {
    user_id: bot.id,
    default_sending_stream: channelName(channels, bot.default_sending_stream_id),
    default_events_register_stream: channelName(channels, bot.default_events_register_stream_id),
    default_all_public_streams: bot.default_all_public_streams,
    services: servicesFor(bot, service),
  };
}

export function botDetails(config: Config, bot: User, service: BotService | undefined, channels: ChannelNames): BotDetails {
  return {
    ...botDict(bot, service, channels),
    email: bot.delivery_email,
    full_name: bot.full_name,
    bot_type: bot.bot_type,
    is_active: bot.is_active,
    avatar_url: botAvatarUrl(config, bot),
    owner_id: bot.bot_owner_id,
  };
}

export function channelName(channels: ChannelNames, id: number | null): string | null {
  return id === null ? null : (channels.get(id) ?? null);
}
