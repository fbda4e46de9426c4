import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import type { User } from '../users/model';
import { isAdminRole } from '../users/roles';
import { announceDefaultChannels } from '../default-channels/store';
import { loadViewer } from './access';
import { channelAlreadyExists, checkNewChannelSettings } from './action-checks';
import { createChannels, NewChannelSettings } from './admin-actions';
import { announceNewChannels } from './announcements';
import { Stream } from './model';
import { addSubscriptions, resolvePrincipals } from './subscription-actions';
import { checkChannelName, normalizeDescription } from './validation';

export interface CreateChannelRequest extends NewChannelSettings {
  name: string;
  description: string;
  /** User ids subscribed to the new channel; the creator is not added unless listed. */
  subscribers: number[];
  /** Whether the notification bot announces the channel (new_stream_announcements_stream_id). */
  announce: boolean;
  isDefaultStream: boolean;
}

/**
 * POST /channels/create: one new channel, created by the same core as channels created on first
 * subscription, with exactly the listed subscribers. A name already in use (letter case ignored)
 * is refused rather than subscribed to. Answers the new channel's id.
 */
export async function createChannel(deps: AppDeps, actor: User, request: CreateChannelRequest): Promise<number> {
  const name = request.name.trim();
  checkChannelName(name);
  if (request.isDefaultStream && !isAdminRole(actor.role)) throw errors.mustBeAdmin();
  if (request.isDefaultStream && request.inviteOnly) throw errors.badRequest('Private channels cannot be made default.');
  return inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const viewer = await loadViewer(db, actor);
    const { groupSettings, retentionDays } = await checkNewChannelSettings(db, viewer, request);
    const taken = await Stream.query(db).where('realm_id', deps.realmId).whereRaw('lower(name) = ?', [name.toLowerCase()]).first();
    if (taken) throw channelAlreadyExists(name);
    const subscribers = await resolvePrincipals(deps, db, actor, [...new Set(request.subscribers)]);

    const [stream] = await createChannels(
      deps,
      uow,
      viewer,
      [{ name, description: normalizeDescription(request.description) }],
      { ...request, groupSettings },
      retentionDays,
    );
    await addSubscriptions(uow, [stream], subscribers, new Map());
    if (request.isDefaultStream) {
      await db('default_streams').insert({ realm_id: deps.realmId, stream_id: stream.id });
      await announceDefaultChannels(uow, deps.realmId);
    }
    if (request.announce) await announceNewChannels(deps, uow, actor, [stream]);
    return stream.id;
  });
}
