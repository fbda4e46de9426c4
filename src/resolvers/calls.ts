import { Arg, Authorized, Ctx, Mutation, Resolver } from 'type-graphql';
import { createBigBlueButtonCall } from '../core/calls/bigbluebutton';
import { createZoomCall } from '../core/calls/zoom';
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
  @Mutation(() => VideoCallType, { description: 'A Zoom meeting hosted by your Zoom account (the one with your email address).' })
  async createZoomCall(@Arg('isVideoCall', { defaultValue: true }) isVideoCall: boolean, @Ctx() ctx: GraphQLContext): Promise<VideoCallType> {
    return Object.assign(new VideoCallType(), await createZoomCall(ctx.deps, me(ctx), { isVideoCall }));
  }
}
