import { Field, InputType, Int, ObjectType, ID } from 'type-graphql';

@ObjectType('Invitation', { description: 'An unexpired email invitation or reusable invitation link.' })
export class InvitationType {
  @Field(() => ID) id!: number;
  @Field() isMultiuse!: boolean;
  @Field(() => String, { nullable: true, description: 'The invited address (email invitations).' }) email!: string | null;
  @Field(() => String, { nullable: true, description: 'The link to share (reusable links).' }) linkUrl!: string | null;
  @Field(() => Int) invitedByUserId!: number;
  @Field(() => Int, { description: 'UNIX seconds of creation.' }) invited!: number;
  @Field(() => Int, { nullable: true, description: 'UNIX seconds; null: never expires.' }) expiryDate!: number | null;
  @Field(() => Int, { description: 'The role the new account gets.' }) invitedAs!: number;
  @Field() notifyReferrerOnJoin!: boolean;

  static from(dict: Record<string, unknown>): InvitationType {
    return Object.assign(new InvitationType(), {
      id: dict.id,
      isMultiuse: dict.is_multiuse,
      email: dict.email ?? null,
      linkUrl: dict.link_url ?? null,
      invitedByUserId: dict.invited_by_user_id,
      invited: dict.invited,
      expiryDate: dict.expiry_date,
      invitedAs: dict.invited_as,
      notifyReferrerOnJoin: dict.notify_referrer_on_join,
    });
  }
}

@InputType({ description: 'What an invitation offers; omitted fields take the same defaults as REST.' })
export class InvitationOptionsInput {
  @Field(() => Int, { nullable: true, description: 'Minutes of validity; omitted: the server default.' }) expiresInMinutes?: number;
  @Field({ nullable: true, description: 'true: the invitation never expires.' }) neverExpires?: boolean;
  @Field(() => Int, { nullable: true, description: 'Role of the new account (default 400, member).' }) inviteAs?: number;
  @Field(() => [Int], { nullable: true }) streamIds?: number[];
  @Field(() => [Int], { nullable: true }) groupIds?: number[];
  @Field({ nullable: true }) includeRealmDefaultSubscriptions?: boolean;
  @Field(() => String, { nullable: true, description: 'Administrators only; at most 8000 characters.' }) welcomeMessageCustomText?: string;
}

@InputType()
export class SendInvitationsInput extends InvitationOptionsInput {
  @Field({ description: 'Addresses separated by commas or newlines.' }) inviteeEmails!: string;
  @Field({ nullable: true, description: 'Default true.' }) notifyReferrerOnJoin?: boolean;
}

@ObjectType('InvitationPayload', { description: 'The invitation after the change.' })
export class InvitationPayload {
  @Field(() => InvitationType) invitation!: InvitationType;
}

@ObjectType('SendInvitationsPayload', { description: 'The email invitations created.' })
export class SendInvitationsPayload {
  @Field(() => [InvitationType]) invitations!: InvitationType[];
}
