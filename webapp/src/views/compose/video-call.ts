import type { CombinedError } from '@urql/core';
import { graphQLClient } from '../../api/instance';
import {
  CreateBigBlueButtonCallMutation,
  CreateConstructorGroupsCallMutation,
  CreateNextcloudTalkCallMutation,
  CreateZoomCallMutation,
} from '../../api/operations/calls';
import { type Addressee, getCompose, setCompose } from '../../state/compose-state';
import { getApp } from '../../state/store';
import { errorText } from '../settings/save';

/** The organization's call providers, by Zulip's ids. */
export const CALL_PROVIDERS = { disabled: 0, jitsi: 1, bigBlueButton: 4, zoom: 5, constructorGroups: 6, nextcloudTalk: 7 } as const;

/** The provider the organization chose; Jitsi Meet where the register says nothing. */
export function callProvider(register: Record<string, unknown>): number {
  const id = register.realm_video_chat_provider;
  return typeof id === 'number' ? id : CALL_PROVIDERS.jitsi;
}

/**
 * A new Jitsi Meet room on the organization's server (else the server's default), with a random
 * name as in Zulip; the fragment turns the camera on, since Jitsi remembers the last call's choice.
 */
export function jitsiCallUrl(register: Record<string, unknown>, roomId: number): string {
  const server = [register.realm_jitsi_server_url, register.server_jitsi_server_url].find((url) => typeof url === 'string' && url !== '') as string | undefined;
  return `${(server ?? 'https://meet.jit.si').replace(/\/+$/, '')}/${roomId}#config.startWithVideoMuted=false`;
}

/** What the button inserts, as Zulip words it. */
export const videoCallMarkdown = (url: string) => `[Join video call.](${url})`;

/** Who the conversation is with: the channel's name, or the names of the people written to. */
function conversationLabel(to: Addressee): string {
  const app = getApp();
  const label =
    to.kind === 'stream'
      ? to.streamId !== null
        ? app.channels.get(to.streamId)?.name
        : undefined
      : to.userIds
          .map((id) => app.users.get(id)?.full_name ?? '')
          .filter(Boolean)
          .join(', ');
  return label ?? '';
}

/** A BigBlueButton meeting is named for the conversation, as in Zulip ("<channel> meeting"). */
export const meetingName = (to: Addressee): string => `${conversationLabel(to)} meeting`.trim();

/** A Nextcloud Talk conversation is too, as in Zulip ("<channel> conversation"). */
export const talkRoomName = (to: Addressee): string => `${conversationLabel(to)} conversation`.trim();

/** The URL a call mutation answered with; rejects with the server's message. */
function urlOf<T>(result: { error?: CombinedError; data?: T | null }, pick: (data: T) => string): string {
  if (result.error || !result.data) throw new Error(result.error ? errorText(result.error) : 'No call was created.');
  return pick(result.data);
}

/** A new video call's URL from the organization's provider; rejects with the server's message. */
export async function newVideoCallUrl(to: Addressee): Promise<string> {
  const register = getApp().register;
  const provider = callProvider(register);
  switch (provider) {
    case CALL_PROVIDERS.jitsi:
      return jitsiCallUrl(register, 100_000_000_000_000 + Math.floor(Math.random() * 900_000_000_000_000));
    case CALL_PROVIDERS.bigBlueButton:
      return urlOf(
        await graphQLClient()
          .mutation(CreateBigBlueButtonCallMutation, { meetingName: meetingName(to), voiceOnly: false })
          .toPromise(),
        (data) => data.createBigBlueButtonCall.url,
      );
    case CALL_PROVIDERS.zoom:
      return urlOf(await graphQLClient().mutation(CreateZoomCallMutation, { isVideoCall: true }).toPromise(), (data) => data.createZoomCall.url);
    case CALL_PROVIDERS.constructorGroups:
      return urlOf(await graphQLClient().mutation(CreateConstructorGroupsCallMutation, {}).toPromise(), (data) => data.createConstructorGroupsCall.url);
    case CALL_PROVIDERS.nextcloudTalk:
      return urlOf(
        await graphQLClient()
          .mutation(CreateNextcloudTalkCallMutation, { roomName: talkRoomName(to) })
          .toPromise(),
        (data) => data.createNextcloudTalkCall.url,
      );
    default:
      throw new Error('Video calls are turned off in this organization.');
  }
}

/** Puts a call link on its own line at the caret (the end when the box has no focus). */
export function insertCallLink(textarea: HTMLTextAreaElement | null, markdown: string): void {
  const { content } = getCompose();
  const caret = textarea && document.activeElement === textarea ? textarea.selectionStart : content.length;
  const before = content.slice(0, caret);
  const after = content.slice(caret);
  setCompose({ content: `${before}${before && !before.endsWith('\n') ? '\n' : ''}${markdown}${after.startsWith('\n') ? '' : '\n'}${after}` });
}
