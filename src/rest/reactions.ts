import { addReaction, removeReaction } from '../core/reactions/actions';
import { endpoint, p } from './endpoint';
import type { Route } from './router';

export const reactionRoutes: Route[] = [
  {
    method: 'POST',
    path: '/messages/:message_id/reactions',
    endpoint: endpoint({
      params: {
        message_id: p.path.int(),
        emoji_name: p.string(),
        emoji_code: p.string().optional(),
        reaction_type: p.string().optional(),
      },
      handler: async ({ deps, user, params }) => {
        await addReaction(deps, user, params.message_id, {
          emojiName: params.emoji_name,
          emojiCode: params.emoji_code,
          reactionType: params.reaction_type,
        });
      },
    }),
  },
  {
    method: 'DELETE',
    path: '/messages/:message_id/reactions',
    endpoint: endpoint({
      params: {
        message_id: p.path.int(),
        emoji_name: p.string().optional(),
        emoji_code: p.string().optional(),
        reaction_type: p.string().default('unicode_emoji'),
      },
      handler: async ({ deps, user, params }) => {
        await removeReaction(deps, user, params.message_id, {
          emojiName: params.emoji_name,
          emojiCode: params.emoji_code,
          reactionType: params.reaction_type,
        });
      },
    }),
  },
];
