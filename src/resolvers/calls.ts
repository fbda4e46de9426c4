import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { createBigBlueButtonCall } from '../core/calls/bigbluebutton';
import { createConstructorGroupsCall } from '../core/calls/constructor-groups';
import { createNextcloudTalkCall } from '../core/calls/nextcloud-talk';
import { createZoomCall } from '../core/calls/zoom';
import { disconnectZoom } from '../core/calls/zoom-user-calls';
import type { User } from '../core/users/model';
import { VideoCallType } from '../schema/calls';
import type { GraphQLContext } from '../schema/context';

const me = (ctx: GraphQLContext) => ctx.user as User;

@Resolver()
export class CallResolver {
  @Authorized()
  @Mutation(() => VideoCallType, { description: 'A BigBlueButton call; you moderate it. Voice-only calls start with cameras disabled.' })
  createBigBlueButtonCall(
    @Arg('meetingName') meetingName: string,
    @Arg('voiceOnly', { defaultValue: false }) voiceOnly: boolean,
    @Ctx() ctx: GraphQLContext,
  ): VideoCallType {
    return Object.assign(new VideoCallType(), createBigBlueButtonCall(ctx.deps, me(ctx), { meetingName, voiceOnly }));
  }

  @Authorized()
  @Mutation(() => VideoCallType, {
    description:
      'A Zoom meeting hosted by your Zoom account: with the per-user OAuth app, the account you connected (GET /calls/zoom/register in a browser); with the server-to-server app, the one with your email address.',
  })
  async createZoomCall(@Arg('isVideoCall', { defaultValue: true }) isVideoCall: boolean, @Ctx() ctx: GraphQLContext): Promise<VideoCallType> {
    return Object.assign(new VideoCallType(), await createZoomCall(ctx.deps, me(ctx), { isVideoCall }));
  }

  @Authorized()
  @Mutation(() => VideoCallType, { description: 'Your default room on the Constructor Groups server, created there the first time.' })
  async createConstructorGroupsCall(@Ctx() ctx: GraphQLContext): Promise<VideoCallType> {
    return Object.assign(new VideoCallType(), await createConstructorGroupsCall(ctx.deps, me(ctx)));
  }

  @Authorized()
  @Mutation(() => VideoCallType, {
    description: 'A new public Nextcloud Talk conversation (guests join by its link); names longer than 255 characters are cut, ending in "...".',
  })
  async createNextcloudTalkCall(@Arg('roomName') roomName: string, @Ctx() ctx: GraphQLContext): Promise<VideoCallType> {
    return Object.assign(new VideoCallType(), await createNextcloudTalkCall(ctx.deps, roomName));
  }

  @Authorized()
  @Mutation(() => Boolean, { description: 'Forgets the token of the Zoom account you connected (Zoom per-user OAuth app); always true.' })
  async disconnectZoom(@Ctx() ctx: GraphQLContext): Promise<boolean> {
    await disconnectZoom(ctx.deps, me(ctx));
    return true;
  }
}
