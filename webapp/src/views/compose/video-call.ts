import { graphQLClient } from '../../api/instance';
import { CreateBigBlueButtonCallMutation, CreateZoomCallMutation } from '../../api/operations/calls';
import { type Addressee, getCompose, setCompose } from '../../state/compose-state';
import { getApp } from '../../state/store';
import { errorText } from '../settings/save';

/** The organization's call providers, by Zulip's ids. */
export const CALL_PROVIDERS = { disabled: 0, jitsi: 1, bigBlueButton: 4, zoom: 5 } as const;

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

/** A BigBlueButton meeting is named for the conversation, as in Zulip ("<channel> meeting"). */
export function meetingName(to: Addressee): string {
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
  return `${label ?? ''} meeting`.trim();
}

/** A new video call's URL from the organization's provider; rejects with the server's message. */
export async function newVideoCallUrl(to: Addressee): Promise<string> {
  const register = getApp().register;
  const provider = callProvider(register);
  if (provider === CALL_PROVIDERS.jitsi) return jitsiCallUrl(register, 100_000_000_000_000 + Math.floor(Math.random() * 900_000_000_000_000));
  if (provider === CALL_PROVIDERS.bigBlueButton) {
    const result = await graphQLClient()
      .mutation(CreateBigBlueButtonCallMutation, { meetingName: meetingName(to), voiceOnly: false })
      .toPromise();
    if (result.error || !result.data) throw new Error(result.error ? errorText(result.error) : 'No call was created.');
    return result.data.createBigBlueButtonCall.url;
  }
  if (provider === CALL_PROVIDERS.zoom) {
    const result = await graphQLClient().mutation(CreateZoomCallMutation, { isVideoCall: true }).toPromise();
    if (result.error || !result.data) throw new Error(result.error ? errorText(result.error) : 'No call was created.');
    return result.data.createZoomCall.url;
  }
  throw new Error('Video calls are turned off in this organization.');
}

/** Puts a call link on its own line at the caret (the end when the box has no focus). */
export function insertCallLink(textarea: HTMLTextAreaElement | null, markdown: string): void {
  const { content } = getCompose();
  const caret = textarea && document.activeElement === textarea ? textarea.selectionStart : content.length;
  const before = content.slice(0, caret);
  const after = content.slice(caret);
  setCompose({ content: `${before}${before && !before.endsWith('\n') ? '\n' : ''}${markdown}${after.startsWith('\n') ? '' : '\n'}${after}` });
}
