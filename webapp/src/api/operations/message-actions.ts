import { graphql } from '../graphql';

/** A message's Markdown source, for editing and quoting (asked for with the one-message query). */
export const RawMessageQuery = graphql(`
  query RawMessage($id: Int!) {
    message(id: $id, applyMarkdown: false) { id rawContent }
  }
`);

/** Edits content, or moves the message (and others of its topic) to another topic or channel. */
export const EditMessageMutation = graphql(`
  mutation EditMessage($id: Int!, $input: EditMessageInput!) {
    editMessage(id: $id, input: $input) { message { id } }
  }
`);

export const DeleteMessageMutation = graphql(`
  mutation DeleteMessage($id: Int!) {
    deleteMessage(id: $id) { id }
  }
`);
