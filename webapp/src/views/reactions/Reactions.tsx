import { useApp } from '../../state/store';
import type { Msg, Reaction } from '../../state/types';
import { EmojiGlyph } from '../emoji/glyph';
import { toggleReaction } from './toggle';

interface Group {
  name: string;
  code: string;
  type: string;
  userIds: number[];
}

function groupReactions(reactions: Reaction[]): Group[] {
  const groups = new Map<string, Group>();
  for (const r of reactions) {
    const key = `${r.reactionType}:${r.emojiCode}`;
    const group = groups.get(key) ?? { name: r.emojiName, code: r.emojiCode, type: r.reactionType, userIds: [] };
    group.userIds.push(r.userId);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** The reactions under a message: one pill per emoji with its count; the user's own are pressed. */
export function Reactions({ message, onError }: { message: Msg; onError: (error: string | null) => void }) {
  const me = useApp((s) => s.me);
  const users = useApp((s) => s.users);
  // Zulip's display_emoji_reaction_users: names instead of counts while a message has 3 reactions or fewer.
  const showNames = useApp((s) => s.settings.display_emoji_reaction_users === true) && message.reactions.length <= 3;
  if (message.reactions.length === 0) return null;
  return (
    <div className="reactions">
      {groupReactions(message.reactions).map((g) => {
        const mine = g.userIds.includes(me);
        const names = g.userIds.map((id) => (id === me ? 'You' : (users.get(id)?.full_name ?? 'Unknown user')));
        return (
          <button
            key={`${g.type}:${g.code}`}
            type="button"
            className="reaction"
            data-emoji-name={g.name}
            aria-pressed={mine}
            title={`${names.join(', ')} reacted with :${g.name}:`}
            onClick={() => void toggleReaction(message.id, g).then(onError)}
          >
            <EmojiGlyph name={g.name} code={g.code} type={g.type} />
            {showNames ? (
              <>
                <span className="reaction-names">{names.join(', ')}</span>
                {/* The count stays the pill's text for whoever reads it (the names are its label). */}
                <span className="reaction-count visually-hidden">{g.userIds.length}</span>
              </>
            ) : (
              <span className="reaction-count">{g.userIds.length}</span>
            )}
          </button>
        );
      })}
    </div>
  );
}
