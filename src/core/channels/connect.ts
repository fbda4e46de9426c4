import { registerFolderUsageCheck } from '../channel-folders/usage';
import { registerGroupUsageSource } from '../groups/usage';
import type { AccountLifecycleSteps } from '../users/lifecycle';
import { registerAccountLifecycleSteps } from '../users/lifecycle';
import { announceDeactivatedAccount, announceReactivatedAccount, noteChannelsBeforeRoleChange } from './actions';
import { channelGroupUsage, folderHoldsChannels } from './usage';

const accountSteps: AccountLifecycleSteps = {
  deactivated: announceDeactivatedAccount,
  reactivated: announceReactivatedAccount,
  changingRole: noteChannelsBeforeRoleChange,
};

/**
 * Registers the channels feature's answers to other features (see `connectFeatures`): groups used
 * in channel permissions stay active, folders holding channels stay unarchived, channel peers hear
 * of accounts leaving and returning, and a role change shows or hides channels.
 */
export function connectChannels(): void {
  registerGroupUsageSource(channelGroupUsage);
  registerFolderUsageCheck(folderHoldsChannels);
  registerAccountLifecycleSteps(accountSteps);
}
