import type { ZulipEvent } from '../../realtime/bus';
import type { QueueDescriptor } from '../../realtime/descriptor';
import { registerEventTransform } from '../../realtime/transforms';
import { registerFolderUsageCheck } from '../channel-folders/usage';
import { ChannelTypingAudience, registerChannelTypingAudience } from '../typing/actions';
import { registerGroupUsageSource } from '../groups/usage';
import type { AccountLifecycleSteps } from '../users/lifecycle';
import { registerAccountLifecycleSteps } from '../users/lifecycle';
import { announceDeactivatedAccount, announceReactivatedAccount, noteChannelsBeforeRoleChange } from './account-changes';
import { accessChannelById, loadViewer } from './access';
import { activeSubscriberIds, subscribersIfSubscribed } from './audience';
import { isRowId } from '../../db/ids';
import { deliverableWithArchivedChannels, stripDeliveryFlags } from './events';
import { channelGroupUsage, folderHoldsChannels } from './usage';

const accountSteps: AccountLifecycleSteps = {
  deactivated: announceDeactivatedAccount,
  reactivated: announceReactivatedAccount,
  changingRole: noteChannelsBeforeRoleChange,
};

/**
 * Typing in a channel the sender can access reaches its subscribers. Nearly everyone types where
 * they are subscribed, which one statement settles; anyone else gets the full access check.
 */
const typingAudience: ChannelTypingAudience = async (deps, sender, streamId) => {
  if (isRowId(streamId)) {
    const subscribers = await subscribersIfSubscribed(deps.knex, deps.realmId, sender.id, streamId);
    if (subscribers) return subscribers;
  }
  const stream = await accessChannelById(deps.knex, await loadViewer(deps.knex, sender), streamId);
  return [...(await activeSubscriberIds(deps.knex, stream.id))];
};

/** Archiving events in the form the client's `archived_channels` capability asks for (see events.ts). */
function shapeForQueue(event: ZulipEvent, queue: QueueDescriptor): ZulipEvent[] {
  if (!deliverableWithArchivedChannels(event, queue.capabilities.archived_channels)) return [];
  return [stripDeliveryFlags(event)];
}

/**
 * Registers the channels feature's answers to other features (see `connectFeatures`): groups used
 * in channel permissions stay active, folders holding channels stay unarchived, channel peers hear
 * of accounts leaving and returning, a role change shows or hides channels, channel typing reaches
 * subscribers, and archiving events reach each client in its form.
 */
export function connectChannels(): void {
  registerGroupUsageSource(channelGroupUsage);
  registerFolderUsageCheck(folderHoldsChannels);
  registerAccountLifecycleSteps(accountSteps);
  registerChannelTypingAudience(typingAudience);
  registerEventTransform('stream', shapeForQueue);
  registerEventTransform('subscription', shapeForQueue);
}
