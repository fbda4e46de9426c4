import { Field, InputType, Int, ObjectType, ID } from 'type-graphql';
import type { UserStatusDict } from '../core/user-status/store';
import type { MutedUserDict } from '../core/muted-users/store';

@ObjectType('UserStatus', { description: "A user's status; fields not set are null." })
export class UserStatusType {
  @Field(() => Int) userId!: number;
  @Field(() => Boolean, { nullable: true, description: 'Deprecated: true while the user has presence_enabled off.' }) away!: boolean | null;
  @Field(() => String, { nullable: true }) statusText!: string | null;
  @Field(() => String, { nullable: true }) emojiName!: string | null;
  @Field(() => String, { nullable: true }) emojiCode!: string | null;
  @Field(() => String, { nullable: true, description: 'unicode_emoji, realm_emoji or zulip_extra_emoji.' }) reactionType!: string | null;

  static from(userId: number, dict: UserStatusDict): UserStatusType {
    return Object.assign(new UserStatusType(), {
      userId,
      away: dict.away ?? null,
      statusText: dict.status_text ?? null,
      emojiName: dict.emoji_name ?? null,
      emojiCode: dict.emoji_code ?? null,
      reactionType: dict.reaction_type ?? null,
    });
  }
}

@InputType({ description: 'The parts of your status to change (as POST /users/me/status); absent parts stay.' })
export class UserStatusInput {
  @Field(() => Boolean, { nullable: true, description: 'Deprecated: sets presence_enabled to its opposite.' }) away?: boolean | null;
  @Field(() => String, { nullable: true, description: 'At most 60 characters; "" clears it.' }) statusText?: string | null;
  @Field(() => String, { nullable: true, description: '"" clears the emoji.' }) emojiName?: string | null;
  @Field(() => String, { nullable: true }) emojiCode?: string | null;
  @Field(() => String, { nullable: true }) reactionType?: string | null;
}

@InputType({ description: "The parts of another user's status to change (as POST /users/{user_id}/status); absent parts stay." })
export class OtherUserStatusInput {
  @Field(() => String, { nullable: true, description: 'At most 60 characters; "" clears it.' }) statusText?: string | null;
  @Field(() => String, { nullable: true, description: '"" clears the emoji.' }) emojiName?: string | null;
  @Field(() => String, { nullable: true }) emojiCode?: string | null;
  @Field(() => String, { nullable: true }) reactionType?: string | null;
}

@ObjectType('MutedUser', { description: 'A user you muted, and when.' })
export class MutedUserType {
  @Field(() => ID) id!: number;
  @Field(() => Int, { description: 'UNIX seconds.' }) timestamp!: number;

  static from(dict: MutedUserDict): MutedUserType {
    return Object.assign(new MutedUserType(), dict);
  }
}
