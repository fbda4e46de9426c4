import { graphql } from '../graphql';

export const CreateDraftsMutation = graphql(`
  mutation CreateDrafts($drafts: [DraftInput!]!) {
    createDrafts(drafts: $drafts) { id type to topic content timestamp }
  }
`);

export const EditDraftMutation = graphql(`
  mutation EditDraft($id: Int!, $draft: DraftInput!) {
    editDraft(id: $id, draft: $draft) { id }
  }
`);

export const DeleteDraftMutation = graphql(`
  mutation DeleteDraft($id: Int!) {
    deleteDraft(id: $id) { id }
  }
`);
