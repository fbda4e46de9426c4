import type { Knex } from 'knex';
import type { AppDeps } from '../../deps';
import { tableCache, TableCacheSpec } from '../../../db/table-cache';
import { User } from '../../users/model';
import { BotType } from '../constants';
import { BotService } from '../model';

/** An active outgoing-webhook bot with its service. */
export interface OutgoingBot {
  bot: User;
  service: BotService;
}

export type OutgoingBots = ReadonlyMap<number, OutgoingBot>;

function outgoingBotsSpec(realmId: number): TableCacheSpec<OutgoingBots> {
  return {
    tables: ['users', 'bot_services'],
    eventTypes: ['realm_bot', 'realm_user'],
    async load(knex: Knex) {
      const bots = await User.query(knex).where({ realm_id: realmId, is_bot: true, is_active: true, bot_type: BotType.OUTGOING_WEBHOOK });
      if (bots.length === 0) return new Map();
      const services = await BotService.query(knex).where('realm_id', realmId);
      const byBot = new Map(services.map((s) => [s.bot_id, s]));
      const out = new Map<number, OutgoingBot>();
      for (const bot of bots) {
        const service = byBot.get(bot.id);
        if (service) out.set(bot.id, { bot, service });
      }
      return out;
    },
  };
}

const specs = new Map<number, TableCacheSpec<OutgoingBots>>();

/**
 * The organization's outgoing-webhook bots, kept in memory per process (see TableCache): every
 * message sent asks whether it mentions or addresses one, which must cost no statement.
 */
export function outgoingBotsCache(deps: Pick<AppDeps, 'knex' | 'bus' | 'realmId'>) {
  let spec = specs.get(deps.realmId);
  if (!spec) specs.set(deps.realmId, (spec = outgoingBotsSpec(deps.realmId)));
  return tableCache(deps, spec);
}
