import { getCompose, setCompose } from '../../webapp/src/state/compose-state';
import { emptyState, setApp } from '../../webapp/src/state/store';
import type { ChannelRecord, UserRecord } from '../../webapp/src/state/types';
import {
  CALL_PROVIDERS,
  callProvider,
  insertCallLink,
  jitsiCallUrl,
  meetingName,
  newVideoCallUrl,
  talkRoomName,
  videoCallMarkdown,
} from '../../webapp/src/views/compose/video-call';

/** The compose box's "Add video call": which provider, which link, and where it goes. */
describe('video calls from the compose box', () => {
  test('the organization’s provider decides; Jitsi Meet when the register names none', () => {
    expect(callProvider({})).toBe(CALL_PROVIDERS.jitsi);
    expect(callProvider({ realm_video_chat_provider: 4 })).toBe(CALL_PROVIDERS.bigBlueButton);
    expect(callProvider({ realm_video_chat_provider: 0 })).toBe(CALL_PROVIDERS.disabled);
  });

  test('Jitsi rooms are on the organization’s server, else the server default, with the camera on', () => {
    expect(jitsiCallUrl({ server_jitsi_server_url: 'https://meet.jit.si' }, 123456789012345)).toBe(
      'https://meet.jit.si/123456789012345#config.startWithVideoMuted=false',
    );
    expect(jitsiCallUrl({ realm_jitsi_server_url: 'https://jitsi.example/', server_jitsi_server_url: 'https://meet.jit.si' }, 7)).toBe(
      'https://jitsi.example/7#config.startWithVideoMuted=false',
    );
  });

  test('the link is Zulip’s wording, on its own line', async () => {
    setApp({ ...emptyState(), register: { realm_video_chat_provider: 1, server_jitsi_server_url: 'https://meet.jit.si' } });
    const url = await newVideoCallUrl({ kind: 'stream', streamId: null, topic: '' });
    expect(url).toMatch(/^https:\/\/meet\.jit\.si\/\d{15}#config\.startWithVideoMuted=false$/);
    setCompose({ content: 'Call now?' });
    insertCallLink(null, videoCallMarkdown(url));
    expect(getCompose().content).toBe(`Call now?\n[Join video call.](${url})\n`);
  });

  test('BigBlueButton meetings are named for the conversation', () => {
    setApp({
      ...emptyState(),
      channels: new Map([[3, { stream_id: 3, name: 'design' } as ChannelRecord]]),
      users: new Map([
        [8, { user_id: 8, full_name: 'Ann Lee' } as UserRecord],
        [9, { user_id: 9, full_name: 'Bo Chen' } as UserRecord],
      ]),
    });
    expect(meetingName({ kind: 'stream', streamId: 3, topic: 'x' })).toBe('design meeting');
    expect(meetingName({ kind: 'private', userIds: [8, 9] })).toBe('Ann Lee, Bo Chen meeting');
  });

  test('Nextcloud Talk conversations are named for the conversation too; Constructor Groups and Talk have their ids', () => {
    expect(talkRoomName({ kind: 'stream', streamId: 3, topic: 'x' })).toBe('design conversation');
    expect(talkRoomName({ kind: 'private', userIds: [8, 9] })).toBe('Ann Lee, Bo Chen conversation');
    expect(talkRoomName({ kind: 'stream', streamId: null, topic: '' })).toBe('conversation');
    expect(callProvider({ realm_video_chat_provider: 6 })).toBe(CALL_PROVIDERS.constructorGroups);
    expect(callProvider({ realm_video_chat_provider: 7 })).toBe(CALL_PROVIDERS.nextcloudTalk);
  });

  test('a disabled provider offers no call', async () => {
    setApp({ ...emptyState(), register: { realm_video_chat_provider: 0 } });
    await expect(newVideoCallUrl({ kind: 'private', userIds: [] })).rejects.toThrow('Video calls are turned off in this organization.');
  });
});
