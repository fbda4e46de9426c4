import { graphQLClient } from '../../api/instance';
import { MarkAllAsReadMutation, MarkChannelAsReadMutation, MarkTopicAsReadMutation } from '../../api/operations/navigation';

/**
 * Marking as read on the server; the flags events update the counts in every tab. The server may stop
 * a large batch early (complete: false): then ask again, as Zulip's clients do.
 */
async function untilComplete(run: () => Promise<boolean | undefined>): Promise<void> {
  for (let i = 0; i < 20; i++) if ((await run()) !== false) return;
}

export const markChannelRead = (streamId: number) =>
  untilComplete(async () => (await graphQLClient().mutation(MarkChannelAsReadMutation, { streamId }).toPromise()).data?.markChannelAsRead.complete);

export const markTopicRead = (streamId: number, topicName: string) =>
  untilComplete(async () => (await graphQLClient().mutation(MarkTopicAsReadMutation, { streamId, topicName }).toPromise()).data?.markTopicAsRead.complete);

export const markAllRead = () =>
  untilComplete(async () => (await graphQLClient().mutation(MarkAllAsReadMutation, {}).toPromise()).data?.markAllAsRead.complete);
