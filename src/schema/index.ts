import 'reflect-metadata';
import { GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { AuthChecker, buildSchemaSync } from 'type-graphql';
import { errors } from '../errors';
import { ChannelResolver } from '../resolvers/channels';
import { EventsResolver } from '../resolvers/events';
import { UserResolver } from '../resolvers/user';
import { UserByEmailResolver } from '../resolvers/users-by-email';
import { UserGroupResolver } from '../resolvers/groups';
import { ChannelFolderResolver } from '../resolvers/channel-folders';
import { ProfileFieldResolver } from '../resolvers/profile-fields';
import { MarkdownResolver } from '../resolvers/markdown';
import { DraftResolver } from '../resolvers/drafts';
import { BotStorageResolver } from '../resolvers/bot-storage';
import { RealmExportResolver } from '../resolvers/exports';
import { ScheduledMessageResolver } from '../resolvers/scheduled-messages';
import { BotResolver } from '../resolvers/bots';
import { SavedSnippetResolver } from '../resolvers/saved-snippets';
import { NavigationViewResolver } from '../resolvers/navigation-views';
import { PushResolver } from '../resolvers/push';
import { PushTestNotificationResolver } from '../resolvers/push-test-notification';
import { InvitationResolver } from '../resolvers/invites';
import { SettingsResolver } from '../resolvers/settings';
import { PresenceResolver } from '../resolvers/presence';
import { MessageResolver } from '../resolvers/messages';
import { UserPreferencesResolver } from '../resolvers/user-preferences';
import { MessageExtrasResolver } from '../resolvers/message-extras';
import { SubmessageResolver } from '../resolvers/submessages';
import { MessageReportResolver } from '../resolvers/message-reports';
import { RealmResolver } from '../resolvers/realm';
import { RealmConfigResolver } from '../resolvers/realm-config';
import { ReadStateResolver } from '../resolvers/read-state';
import { ServerResolver } from '../resolvers/server';
import { MessageLinksResolver, ReactionLinksResolver, UserGroupLinksResolver, UserLinksResolver } from '../resolvers/links';
import { MessageTopicLinksResolver } from '../resolvers/topic-links';
import { RealmAdminResolver } from '../resolvers/realm-admin';
import { AccountResolver } from '../resolvers/accounts';
import { UploadResolver } from '../resolvers/uploads';
import { CallResolver } from '../resolvers/calls';
import type { GraphQLContext } from './context';
import { refuseNulArguments } from './nul-arguments';
import { busOnlyPubSub } from './pubsub';
import { eventClasses } from './event-types';

/** Operations marked @Authorized need Basic credentials; the error is REST's 401. */
const authChecker: AuthChecker<GraphQLContext> = ({ context }) => {
  if (!context.user) throw errors.unauthorized();
  return true;
};

export const resolvers = [
  UserResolver,
  UserByEmailResolver,
  UserGroupResolver,
  ChannelFolderResolver,
  ProfileFieldResolver,
  ChannelResolver,
  MarkdownResolver,
  DraftResolver,
  BotStorageResolver,
  RealmExportResolver,
  ScheduledMessageResolver,
  BotResolver,
  SavedSnippetResolver,
  NavigationViewResolver,
  PushResolver,
  PushTestNotificationResolver,
  InvitationResolver,
  SettingsResolver,
  PresenceResolver,
  EventsResolver,
  MessageResolver,
  UserPreferencesResolver,
  MessageExtrasResolver,
  SubmessageResolver,
  MessageReportResolver,
  RealmResolver,
  RealmConfigResolver,
  MessageLinksResolver,
  MessageTopicLinksResolver,
  ReactionLinksResolver,
  UserGroupLinksResolver,
  UserLinksResolver,
  ReadStateResolver,
  ServerResolver,
  RealmAdminResolver,
  AccountResolver,
  UploadResolver,
  CallResolver,
] as const;

let cached: GraphQLSchema | null = null;

export function buildGraphQLSchema(): GraphQLSchema {
  cached ??= buildSchemaSync({
    resolvers: [...resolvers],
    // Every event type, though the subscription names only their interface.
    orphanedTypes: [...eventClasses.values()],
    authChecker,
    validate: false,
    pubSub: busOnlyPubSub,
    globalMiddlewares: [refuseNulArguments],
  });
  return cached;
}

/** The SDL committed as schema.graphql. */
export function schemaSdl(): string {
  return `${printSchema(lexicographicSortSchema(buildGraphQLSchema()))}\n`;
}
