import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { loadViewer } from '../channels/access';
import { Stream } from '../channels/model';
import { accessMessage } from '../messages/access';
import { dmParticipants } from '../messages/model';
import { sendInternalMessage } from '../messages/send';
import { storedRealmSetting } from '../realm/setting-store';
import { notificationBot } from '../system-bots/notification-bot';
import { User } from '../users/model';
import { ReportedPlace, reportContent, reportTopic } from './content';
import type { ReportType } from './reasons';

export interface MessageReport {
  reportType: ReportType;
  description: string;
}

/**
 * POST /messages/{id}/report: the notification bot posts a moderation request to the
 * organization's moderation request channel, in a topic named for the reported message's sender.
 * Anyone who can see a message may report it, their own included (as in Zulip).
 */
export async function reportMessage(deps: AppDeps, reporter: User, messageId: number, report: MessageReport): Promise<void> {
  if (report.reportType === 'other' && report.description === '') throw errors.badRequest('An explanation is required.');
  await inTransaction(deps, deps.realmId, async (uow) => {
    const db = uow.trx;
    const channelId = await storedRealmSetting<number>(db, deps.realmId, 'moderation_request_channel_id', -1);
    const channel = channelId === -1 ? undefined : await Stream.query(db).findOne({ id: channelId, realm_id: deps.realmId });
    if (!channel || channel.deactivated) throw errors.badRequest('Message reporting is not enabled in this organization.');
    const { message } = await accessMessage(db, await loadViewer(db, reporter), messageId, { modifying: false });
    const sender = await User.query(db).findById(message.sender_id).throwIfNotFound();
    let place: ReportedPlace;
    if (message.stream_id !== null) {
      const origin = await Stream.query(db).findById(message.stream_id).throwIfNotFound();
      place = { kind: 'channel', channelId: origin.id, channelName: origin.name, topic: message.topic };
    } else {
      const ids = dmParticipants(message.dm_key ?? String(message.sender_id));
      const participants = await User.query(db).findByIds(ids).orderBy('id');
      place = { kind: 'direct', participants };
    }
    const content = reportContent({
      reporter,
      sender,
      place,
      messageId: message.id,
      content: message.content,
      dateSent: message.date_sent,
      reportType: report.reportType,
      description: report.description,
      externalUrl: deps.config.externalUrl,
    });
    const topic = channel.topics_policy === 'empty_topic_only' ? '' : reportTopic(sender);
    await sendInternalMessage(deps, uow, await notificationBot(db), { stream: channel, topic }, content);
  });
}
