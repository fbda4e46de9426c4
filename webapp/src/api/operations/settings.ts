import { graphql } from '../graphql';

/** Personal settings: the user's own settings, profile, account, keys, lists and bots. */

export const UpdateSettingsMutation = graphql(`
  mutation UpdateSettings($input: UpdateSettingsInput!) {
    updateSettings(input: $input) { colorScheme }
  }
`);

export const UploadAvatarMutation = graphql(`
  mutation UploadAvatar($contentBase64: String!) {
    uploadAvatar(input: { contentBase64: $contentBase64 }) { avatarUrl }
  }
`);

export const DeleteAvatarMutation = graphql(`
  mutation DeleteAvatar {
    deleteAvatar { avatarUrl }
  }
`);

export const UpdateProfileDataMutation = graphql(`
  mutation UpdateProfileData($data: [ProfileDataInput!]!) {
    updateProfileData(data: $data) { userId }
  }
`);

export const RemoveProfileDataMutation = graphql(`
  mutation RemoveProfileData($fieldIds: [Int!]!) {
    removeProfileData(fieldIds: $fieldIds) { userId }
  }
`);

export const UpdateUserStatusMutation = graphql(`
  mutation UpdateUserStatus($status: UserStatusInput!) {
    updateUserStatus(status: $status) { userId statusText emojiName emojiCode reactionType away }
  }
`);

export const FetchApiKeyMutation = graphql(`
  mutation FetchApiKey($username: String!, $password: String!) {
    fetchApiKey(username: $username, password: $password) { apiKey email userId }
  }
`);

export const RegenerateApiKeyMutation = graphql(`
  mutation RegenerateApiKey {
    regenerateApiKey
  }
`);

export const DeactivateOwnAccountMutation = graphql(`
  mutation DeactivateOwnAccount {
    deactivateOwnAccount { id }
  }
`);

export const AddAlertWordsMutation = graphql(`
  mutation AddAlertWords($words: [String!]!) {
    addAlertWords(alertWords: $words)
  }
`);

export const RemoveAlertWordsMutation = graphql(`
  mutation RemoveAlertWords($words: [String!]!) {
    removeAlertWords(alertWords: $words)
  }
`);

export const UnmuteUserMutation = graphql(`
  mutation UnmuteUser($userId: Int!) {
    unmuteUser(userId: $userId) { id }
  }
`);

export const UpdateUserTopicMutation = graphql(`
  mutation UpdateUserTopic($streamId: Int!, $topic: String!, $visibilityPolicy: Int!) {
    updateUserTopic(streamId: $streamId, topic: $topic, visibilityPolicy: $visibilityPolicy) { id visibilityPolicy }
  }
`);

export const SubscriptionPropertiesMutation = graphql(`
  mutation SubscriptionProperties($changes: [SubscriptionPropertiesInput!]!) {
    updateSubscriptionProperties(changes: $changes) { color channel { id } }
  }
`);

export const CreateSavedSnippetMutation = graphql(`
  mutation CreateSavedSnippet($title: String!, $content: String!) {
    createSavedSnippet(title: $title, content: $content) { id title content dateCreated }
  }
`);

export const DeleteSavedSnippetMutation = graphql(`
  mutation DeleteSavedSnippet($id: Int!) {
    deleteSavedSnippet(id: $id) { id }
  }
`);

export const BotsQuery = graphql(`
  query Bots {
    bots { id userId fullName email botType isActive avatarUrl ownerId services { baseUrl interface } }
  }
`);

export const CreateBotMutation = graphql(`
  mutation CreateBot($input: CreateBotInput!) {
    createBot(input: $input) { apiKey bot { id userId fullName email botType isActive avatarUrl } }
  }
`);

export const RegenerateBotApiKeyMutation = graphql(`
  mutation RegenerateBotApiKey($botId: Int!) {
    regenerateBotApiKey(botId: $botId) { apiKey bot { id email } }
  }
`);

export const DeactivateBotMutation = graphql(`
  mutation DeactivateBot($botId: Int!) {
    deactivateBot(botId: $botId) { bot { id isActive } }
  }
`);
