import { Arg, Authorized, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import {
  acceptInvitation,
  createMultiuseInvite,
  InvitationOptions,
  inviteUsers,
  MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH,
  resendEmailInvite,
  revokeEmailInvite,
  revokeMultiuseInvite,
} from '../core/invites/actions';
import { listInvitations } from '../core/invites/queries';
import { invitationDict } from '../core/invites/view';
import type { User } from '../core/users/model';
import { errors } from '../errors';
import type { GraphQLContext } from '../schema/context';
import { deleted, DeletedPayload } from '../schema/payloads';
import { InvitationOptionsInput, InvitationPayload, InvitationType, SendInvitationsInput, SendInvitationsPayload } from '../schema/invites';
import { ApiKeyResult } from '../schema/user';

const me = (ctx: GraphQLContext) => ctx.user as User;

function options(input: InvitationOptionsInput, defaultStreams: number[] | null): InvitationOptions {
  const text = input.welcomeMessageCustomText ?? null;
  if (text !== null && [...text].length > MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH) {
    throw errors.badRequest(`welcome_message_custom_text is too long (limit: ${MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH} characters)`);
  }
  const streamIds = input.streamIds ?? defaultStreams;
  if (streamIds === null) throw errors.missing('stream_ids');
  return {
    expiresInMinutes: input.neverExpires ? null : (input.expiresInMinutes ?? undefined),
    inviteAs: input.inviteAs ?? 400,
    streamIds,
    groupIds: input.groupIds ?? null,
    includeRealmDefaultSubscriptions: input.includeRealmDefaultSubscriptions ?? false,
    welcomeMessageCustomText: text,
  };
}

@Resolver(() => InvitationType)
export class InvitationResolver {
  @Authorized()
  @Query(() => [InvitationType], { description: 'Unexpired invitations you may manage (all of them for administrators).' })
  async invitations(@Ctx() ctx: GraphQLContext): Promise<InvitationType[]> {
    return (await listInvitations(ctx.deps, me(ctx))).map(InvitationType.from);
  }

  @Authorized()
  @Mutation(() => SendInvitationsPayload, {
    description: 'Invites addresses by email. Addresses that already have accounts fail with INVITATION_FAILED after the others were invited.',
  })
  async sendInvitations(@Arg('input') input: SendInvitationsInput, @Ctx() ctx: GraphQLContext): Promise<SendInvitationsPayload> {
    const created = await inviteUsers(ctx.deps, me(ctx), {
      ...options(input, null),
      inviteeEmails: input.inviteeEmails,
      notifyReferrerOnJoin: input.notifyReferrerOnJoin ?? true,
    });
    return Object.assign(new SendInvitationsPayload(), { invitations: created.map((i) => InvitationType.from(invitationDict(ctx.deps.config, i))) });
  }

  @Authorized()
  @Mutation(() => String, { description: 'Creates a reusable invitation link and returns its URL.' })
  async createInviteLink(
    @Arg('input', () => InvitationOptionsInput, { nullable: true }) input: InvitationOptionsInput | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<string> {
    return createMultiuseInvite(ctx.deps, me(ctx), options(input ?? new InvitationOptionsInput(), []));
  }

  @Authorized()
  @Mutation(() => DeletedPayload)
  async revokeInvitation(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await revokeEmailInvite(ctx.deps, me(ctx), id);
    return deleted(id);
  }

  @Authorized()
  @Mutation(() => DeletedPayload)
  async revokeInviteLink(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<DeletedPayload> {
    await revokeMultiuseInvite(ctx.deps, me(ctx), id);
    return deleted(id);
  }

  @Authorized()
  @Mutation(() => InvitationPayload, { description: 'Sends an email invitation again.' })
  async resendInvitation(@Arg('id', () => Int) id: number, @Ctx() ctx: GraphQLContext): Promise<InvitationPayload> {
    const invite = await resendEmailInvite(ctx.deps, me(ctx), id);
    return Object.assign(new InvitationPayload(), { invitation: InvitationType.from(invitationDict(ctx.deps.config, invite)) });
  }

  @Mutation(() => ApiKeyResult, { description: 'Creates the account an invitation link offers; needs no authentication.' })
  async acceptInvitation(
    @Arg('key', { description: 'The last part of the invitation link.' }) key: string,
    @Arg('fullName') fullName: string,
    @Arg('password') password: string,
    @Arg('email', () => String, { nullable: true, description: 'For reusable links.' }) email: string | null,
    @Ctx() ctx: GraphQLContext,
  ): Promise<ApiKeyResult> {
    const { user, apiKey } = await acceptInvitation(ctx.deps, key, { fullName, password, email: email ?? undefined });
    return Object.assign(new ApiKeyResult(), { apiKey, email: user.delivery_email, userId: user.id });
  }
}
