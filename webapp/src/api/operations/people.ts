import { graphql } from '../graphql';

/** Reports this client's presence and gets everyone's that changed since `lastUpdateId`. */
export const UpdatePresenceMutation = graphql(`
  mutation UpdatePresence($status: String!, $newUserInput: Boolean, $lastUpdateId: Float) {
    updatePresence(input: { status: $status, newUserInput: $newUserInput, lastUpdateId: $lastUpdateId }) {
      presenceLastUpdateId
      serverTimestamp
      presences { userId activeTimestamp idleTimestamp }
    }
  }
`);
