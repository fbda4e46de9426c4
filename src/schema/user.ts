import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import type { UserDict } from '../core/users/view';
import { ProfileDataInput } from './profile-fields';

@ObjectType('User', { description: 'An account of the organization, as the requester may see it.' })
export class UserType {
  @Field(() => ID) id!: number;
  @Field(() => Int, { description: "The same as id, as a number (the REST API's user_id)." }) userId!: number;
  @Field({ description: 'API email: a placeholder when the requester may not see the real address.' }) email!: string;
  @Field(() => String, { nullable: true, description: 'Real address; null when hidden from the requester.' })
  deliveryEmail!: string | null;
  @Field() fullName!: string;
  @Field({ description: 'ISO 8601 time the account joined: when it was created, or, for one created through the API, its first login.' })
  dateJoined!: string;
  @Field() isActive!: boolean;
  @Field() isOwner!: boolean;
  @Field() isAdmin!: boolean;
  @Field() isGuest!: boolean;
  @Field() isBot!: boolean;
  @Field(() => Int, { nullable: true }) botType!: number | null;
  @Field(() => Int, { nullable: true }) botOwnerId!: number | null;
  @Field(() => Int, { description: '100 owner, 200 administrator, 300 moderator, 400 member, 600 guest.' }) role!: number;
  @Field() timezone!: string;
  @Field(() => String, { nullable: true }) avatarUrl!: string | null;
  @Field(() => Int) avatarVersion!: number;
  @Field({ description: 'Whether the account is a stub made from imported data that was never signed into (never, here).' })
  isImportedStub!: boolean;

  static from(dict: UserDict): UserType {
    return Object.assign(new UserType(), {
      id: dict.user_id,
      userId: dict.user_id,
      email: dict.email,
      deliveryEmail: dict.delivery_email,
      fullName: dict.full_name,
      dateJoined: dict.date_joined,
      isActive: dict.is_active,
      isOwner: dict.is_owner,
      isAdmin: dict.is_admin,
      isGuest: dict.is_guest,
      isBot: dict.is_bot,
      botType: dict.bot_type,
      botOwnerId: dict.bot_owner_id,
      role: dict.role,
      timezone: dict.timezone,
      avatarUrl: dict.avatar_url ?? null,
      avatarVersion: dict.avatar_version,
      isImportedStub: dict.is_imported_stub,
    });
  }
}

@ObjectType()
export class ApiKeyResult {
  @Field() apiKey!: string;
  @Field() email!: string;
  @Field(() => Int) userId!: number;
}

@InputType()
export class CreateUserInput {
  @Field() email!: string;
  @Field() password!: string;
  @Field() fullName!: string;
}

@InputType()
export class UpdateUserInput {
  @Field({ nullable: true }) fullName?: string;
  @Field(() => Int, { nullable: true }) role?: number;
  @Field(() => [ProfileDataInput], {
    nullable: true,
    description: "Administrators: the user's custom profile field values (as PATCH /users/{id} profile_data); an empty value clears one.",
  })
  profileData?: ProfileDataInput[];
}

@InputType({ description: 'What to do besides deactivating (as DELETE /users/{id} actions); each false unless given.' })
export class DeactivationActionsInput {
  @Field({ nullable: true, description: 'The name becomes "Deleted user" and an uploaded avatar goes.' }) deleteProfile?: boolean;
  @Field({ nullable: true, description: 'Delete the messages the user (and their bots) sent in public channels.' }) deletePublicChannelMessages?: boolean;
  @Field({ nullable: true, description: 'Delete the messages the user (and their bots) sent in private channels.' }) deletePrivateChannelMessages?: boolean;
  @Field({ nullable: true, description: 'Delete the direct messages the user (and their bots) sent.' }) deleteDirectMessages?: boolean;
}
