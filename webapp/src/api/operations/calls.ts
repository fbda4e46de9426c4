import { graphql } from '../graphql';

/** A signed link to this server's BigBlueButton join page (relative). */
export const CreateBigBlueButtonCallMutation = graphql(`
  mutation CreateBigBlueButtonCall($meetingName: String!, $voiceOnly: Boolean!) {
    createBigBlueButtonCall(meetingName: $meetingName, voiceOnly: $voiceOnly) { url }
  }
`);

/** A Zoom meeting hosted by the member's Zoom user; the answer is its join URL. */
export const CreateZoomCallMutation = graphql(`
  mutation CreateZoomCall($isVideoCall: Boolean!) {
    createZoomCall(isVideoCall: $isVideoCall) { url }
  }
`);

/** The member's default room on the Constructor Groups server; the answer is its URL. */
export const CreateConstructorGroupsCallMutation = graphql(`
  mutation CreateConstructorGroupsCall {
    createConstructorGroupsCall { url }
  }
`);

/** A new public Nextcloud Talk conversation; the answer is its call page. */
export const CreateNextcloudTalkCallMutation = graphql(`
  mutation CreateNextcloudTalkCall($roomName: String!) {
    createNextcloudTalkCall(roomName: $roomName) { url }
  }
`);
