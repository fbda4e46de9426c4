import type { AppDeps } from '../deps';
import { errors } from '../../errors';
import { webPublicChannelsEnabled } from '../channels/realm-policy';
import { Stream } from '../channels/model';
import { channelDict, loadChannelViewContext } from '../channels/view';
import { badNarrow, NarrowTerm } from '../messages/narrow-parse';
import { User } from '../users/model';
import { Role } from '../users/roles';
import { realmSlice } from './state';

/**
 * Spectators: visitors without an account, who may read web-public channels while the
 * organization has enable_spectator_access on (Zulip's public access). Everything else answers
 * as it does to any unauthenticated request.
 */
export async function requireSpectatorAccess(deps: AppDeps): Promise<void> {
  if (!(await webPublicChannelsEnabled(deps.knex, deps.realmId))) throw errors.unauthorized();
}

/**
 * Unauthenticated POST /register: the organization's settings and its web-public channels, with
 * no event queue (queue_id null).
 */
export async function spectatorRegister(deps: AppDeps, request: { clientGravatar?: boolean; includeSubscribers: unknown; fetchEventTypes?: string[] }) {
  if (request.clientGravatar === true) throw errors.badRequest("Invalid 'client_gravatar' parameter for anonymous request");
  if (request.includeSubscribers !== false && request.includeSubscribers !== 'false') {
    throw errors.badRequest("Invalid 'include_subscribers' parameter for anonymous request");
  }
  await requireSpectatorAccess(deps);
  const wants = (type: string) => !request.fetchEventTypes || request.fetchEventTypes.includes(type);
  const state: Record<string, unknown> = { queue_id: null };
  if (wants('realm')) Object.assign(state, await realmSlice.fetch(deps, null as never, {} as never));
  if (wants('stream')) {
    const streams = await Stream.query(deps.knex).where({ realm_id: deps.realmId, is_web_public: true, invite_only: false, deactivated: false }).orderBy('id');
    const ctx = await loadChannelViewContext(deps.knex, deps.realmId, streams, { statistics: deps });
    state.streams = streams.map((s) => channelDict(s, ctx));
  }
  return state;
}

/** Operators a spectator may narrow by (Zulip's spectator-compatible narrows). */
const SPECTATOR_OPERATORS = new Set(['channel', 'stream', 'channels', 'streams', 'topic', 'subject', 'sender', 'has', 'search', 'near', 'id']);

/**
 * A spectator's GET /messages narrow must name a web-public channel (or channels:web-public) and
 * use only operators that make sense without an account; anything else needs authentication.
 */
export async function checkSpectatorNarrow(deps: AppDeps, narrow: NarrowTerm[]): Promise<void> {
  await requireSpectatorAccess(deps);
  if (narrow.some((t) => !SPECTATOR_OPERATORS.has(t.operator))) throw errors.unauthorized();
  const positive = narrow.filter((t) => !t.negated);
  const channelTerms = positive.filter((t) => t.operator === 'channel' || t.operator === 'stream');
  const webPublicTerm = positive.some((t) => (t.operator === 'channels' || t.operator === 'streams') && t.operand === 'web-public');
  if (channelTerms.length === 0 && !webPublicTerm) throw errors.unauthorized();
  if (narrow.some((t) => (t.operator === 'channels' || t.operator === 'streams') && (t.negated || t.operand !== 'web-public'))) throw errors.unauthorized();
  for (const term of channelTerms) {
    const query = Stream.query(deps.knex).where({ realm_id: deps.realmId, is_web_public: true, invite_only: false });
    const stream =
      typeof term.operand === 'number'
        ? Number.isSafeInteger(term.operand) && term.operand > 0 && term.operand <= 2147483647
          ? await query.findById(term.operand)
          : undefined
        : await query.whereRaw('lower(name) = lower(?)', [String(term.operand).trim()]).first();
    if (!stream) throw badNarrow(`unknown web-public channel ${String(term.operand)}`);
  }
}

/**
 * Whom a spectator's message fetch runs as: no account (id 0 receives nothing), with a member's
 * reach into public history; checkSpectatorNarrow has already confined the narrow to web-public
 * channels.
 */
export function spectatorReader(deps: AppDeps): User {
  return Object.assign(new User(), { id: 0, realm_id: deps.realmId, role: Role.MEMBER, is_active: true, is_bot: false, bot_owner_id: null });
}
