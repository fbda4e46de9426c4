import { graphql } from '../graphql';

/*
 * Organization administration: settings, users, invitations, channels, groups and the organization's
 * content. The server decides who may do what; the views show its refusals.
 */

export const UpdateRealmSettingsMutation = graphql(`
  mutation UpdateRealmSettings($settings: JSON!) {
    updateRealmSettings(settings: $settings) { changed }
  }
`);

export const UploadRealmImageMutation = graphql(`
  mutation UploadRealmImage($image: String!, $contentBase64: String!) {
    uploadRealmImage(image: $image, contentBase64: $contentBase64) { url source }
  }
`);

export const DeleteRealmImageMutation = graphql(`
  mutation DeleteRealmImage($image: String!) {
    deleteRealmImage(image: $image) { url source }
  }
`);

/* Users */

export const UpdateUserMutation = graphql(`
  mutation AdminUpdateUser($id: Int!, $input: UpdateUserInput!) {
    updateUser(id: $id, input: $input) { id userId role fullName }
  }
`);

export const DeactivateUserMutation = graphql(`
  mutation DeactivateUser($id: Int!) {
    deactivateUser(id: $id) { id userId isActive }
  }
`);

export const ReactivateUserMutation = graphql(`
  mutation ReactivateUser($id: Int!) {
    reactivateUser(id: $id) { id userId isActive }
  }
`);

export const ProfileDataQuery = graphql(`
  query AdminProfileData($userId: Int!) {
    profileData(userId: $userId) { fieldId value }
  }
`);

/* Invitations */

export const InvitationsQuery = graphql(`
  query Invitations {
    invitations { id email expiryDate invited invitedAs invitedByUserId isMultiuse linkUrl }
  }
`);

export const SendInvitationsMutation = graphql(`
  mutation SendInvitations($input: SendInvitationsInput!) {
    sendInvitations(input: $input) { invitations { id } }
  }
`);

export const CreateInviteLinkMutation = graphql(`
  mutation CreateInviteLink($input: InvitationOptionsInput) {
    createInviteLink(input: $input)
  }
`);

export const ResendInvitationMutation = graphql(`
  mutation ResendInvitation($id: Int!) {
    resendInvitation(id: $id) { __typename }
  }
`);

export const RevokeInvitationMutation = graphql(`
  mutation RevokeInvitation($id: Int!) {
    revokeInvitation(id: $id) { id }
  }
`);

export const RevokeInviteLinkMutation = graphql(`
  mutation RevokeInviteLink($id: Int!) {
    revokeInviteLink(id: $id) { id }
  }
`);

/* Channels */

export const AdminChannelsQuery = graphql(`
  query AdminChannels {
    channels(includeAll: true, includePublic: true, includeSubscribed: true, includeWebPublic: true, excludeArchived: false) {
      id streamId name description inviteOnly isWebPublic isArchived folderId subscriberCount historyPublicToSubscribers
      canSendMessageGroup { groupId directMembers directSubgroups }
    }
    defaultChannelIds
    channelFolders(includeArchived: true) { id name description isArchived order }
  }
`);

export const CreateChannelMutation = graphql(`
  mutation CreateChannel($input: SubscribeInput!) {
    subscribe(input: $input) { unauthorized }
  }
`);

export const UpdateChannelMutation = graphql(`
  mutation AdminUpdateChannel($id: Int!, $input: UpdateChannelInput!) {
    updateChannel(id: $id, input: $input) { id streamId name description inviteOnly isWebPublic isArchived folderId }
  }
`);

export const ArchiveChannelMutation = graphql(`
  mutation ArchiveChannel($id: Int!) {
    archiveChannel(id: $id) { id }
  }
`);

export const ChannelSubscribersQuery = graphql(`
  query ChannelSubscribers($id: Int!) {
    channelSubscribers(id: $id)
  }
`);

export const SubscribeUsersMutation = graphql(`
  mutation SubscribeUsers($channel: String!, $userIds: [Int!]!) {
    subscribe(input: { channels: [{ name: $channel }], userIds: $userIds }) { unauthorized }
  }
`);

export const UnsubscribeUsersMutation = graphql(`
  mutation UnsubscribeUsers($channel: String!, $userIds: [Int!]!) {
    unsubscribe(channels: [$channel], userIds: $userIds) { notRemoved }
  }
`);

export const AddDefaultChannelMutation = graphql(`
  mutation AddDefaultChannel($channelId: Int!) {
    addDefaultChannel(channelId: $channelId) { defaultChannelIds }
  }
`);

export const RemoveDefaultChannelMutation = graphql(`
  mutation RemoveDefaultChannel($channelId: Int!) {
    removeDefaultChannel(channelId: $channelId) { defaultChannelIds }
  }
`);

export const CreateChannelFolderMutation = graphql(`
  mutation CreateChannelFolder($name: String!, $description: String!) {
    createChannelFolder(name: $name, description: $description) { id }
  }
`);

export const UpdateChannelFolderMutation = graphql(`
  mutation UpdateChannelFolder($id: Int!, $name: String, $description: String, $isArchived: Boolean) {
    updateChannelFolder(id: $id, name: $name, description: $description, isArchived: $isArchived) { id name isArchived }
  }
`);

export const ReorderChannelFoldersMutation = graphql(`
  mutation ReorderChannelFolders($order: [Int!]!) {
    reorderChannelFolders(order: $order) { id order }
  }
`);

/* Groups */

export const UserGroupsQuery = graphql(`
  query AdminUserGroups {
    userGroups(includeDeactivated: true) {
      id name description isSystemGroup deactivated memberIds directSubgroupIds
      canManageGroup { groupId directMembers directSubgroups }
      canMentionGroup { groupId directMembers directSubgroups }
      canAddMembersGroup { groupId directMembers directSubgroups }
      canJoinGroup { groupId directMembers directSubgroups }
      canLeaveGroup { groupId directMembers directSubgroups }
      canRemoveMembersGroup { groupId directMembers directSubgroups }
    }
  }
`);

export const CreateUserGroupMutation = graphql(`
  mutation CreateUserGroup($input: CreateUserGroupInput!) {
    createUserGroup(input: $input) { id }
  }
`);

export const UpdateUserGroupMutation = graphql(`
  mutation UpdateUserGroup($id: Int!, $input: UpdateUserGroupInput!) {
    updateUserGroup(id: $id, input: $input) { id name description deactivated }
  }
`);

export const UpdateUserGroupMembersMutation = graphql(`
  mutation UpdateUserGroupMembers($id: Int!, $add: [Int!], $delete: [Int!], $addSubgroups: [Int!], $deleteSubgroups: [Int!]) {
    updateUserGroupMembers(id: $id, add: $add, delete: $delete, addSubgroups: $addSubgroups, deleteSubgroups: $deleteSubgroups) {
      id memberIds directSubgroupIds
    }
  }
`);

export const DeactivateUserGroupMutation = graphql(`
  mutation DeactivateUserGroup($id: Int!) {
    deactivateUserGroup(id: $id) { id deactivated }
  }
`);

/* Organization content */

export const ContentQuery = graphql(`
  query OrganizationContent {
    realmEmoji { id name sourceUrl deactivated authorId }
    linkifiers { id pattern urlTemplate exampleInput reverseTemplate alternativeUrlTemplates }
    codePlaygrounds { id name pygmentsLanguage urlTemplate }
    customProfileFields { id name hint type order fieldData required editableByUser displayInProfileSummary useForUserMatching }
  }
`);

export const DeactivateEmojiMutation = graphql(`
  mutation DeactivateEmoji($name: String!) {
    deactivateCustomEmoji(name: $name) { id }
  }
`);

export const AddLinkifierMutation = graphql(`
  mutation AddLinkifier($pattern: String!, $urlTemplate: String!, $exampleInput: String, $reverseTemplate: String, $alternativeUrlTemplates: [String!]) {
    addLinkifier(
      pattern: $pattern
      urlTemplate: $urlTemplate
      exampleInput: $exampleInput
      reverseTemplate: $reverseTemplate
      alternativeUrlTemplates: $alternativeUrlTemplates
    )
  }
`);

export const UpdateLinkifierMutation = graphql(`
  mutation UpdateLinkifier($id: Int!, $pattern: String!, $urlTemplate: String!) {
    updateLinkifier(id: $id, pattern: $pattern, urlTemplate: $urlTemplate) { __typename }
  }
`);

export const RemoveLinkifierMutation = graphql(`
  mutation RemoveLinkifier($id: Int!) {
    removeLinkifier(id: $id) { id }
  }
`);

export const ReorderLinkifiersMutation = graphql(`
  mutation ReorderLinkifiers($ids: [Int!]!) {
    reorderLinkifiers(orderedLinkifierIds: $ids) { __typename }
  }
`);

export const AddPlaygroundMutation = graphql(`
  mutation AddPlayground($name: String!, $pygmentsLanguage: String!, $urlTemplate: String!) {
    addCodePlayground(name: $name, pygmentsLanguage: $pygmentsLanguage, urlTemplate: $urlTemplate)
  }
`);

export const RemovePlaygroundMutation = graphql(`
  mutation RemovePlayground($id: Int!) {
    removeCodePlayground(id: $id) { id }
  }
`);

export const CreateProfileFieldMutation = graphql(`
  mutation CreateProfileField($fieldType: Int!, $input: CustomProfileFieldInput) {
    createCustomProfileField(fieldType: $fieldType, input: $input) { id }
  }
`);

export const ReorderProfileFieldsMutation = graphql(`
  mutation ReorderProfileFields($order: [Int!]!) {
    reorderCustomProfileFields(order: $order) { id order }
  }
`);

export const DeleteProfileFieldMutation = graphql(`
  mutation DeleteProfileField($id: Int!) {
    deleteCustomProfileField(id: $id) { id }
  }
`);

/* Bots */

export const BotsQuery = graphql(`
  query AdminBots {
    bots { id userId fullName email isActive botType ownerId avatarUrl }
  }
`);

export const DeactivateBotMutation = graphql(`
  mutation DeactivateBot($botId: Int!) {
    deactivateBot(botId: $botId) { __typename }
  }
`);

export const RegenerateBotKeyMutation = graphql(`
  mutation RegenerateBotKey($botId: Int!) {
    regenerateBotApiKey(botId: $botId) { apiKey }
  }
`);
