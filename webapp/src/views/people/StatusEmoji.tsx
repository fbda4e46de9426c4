import { type UserStatus, useApp } from '../../state/store';
import { isLocalUrl } from './Avatar';

/** A status emoji: a Unicode character from its code points, or the organization's own image. */
export function StatusEmoji({ status }: { status: UserStatus }) {
  const realmEmoji = useApp((s) => s.realmEmoji);
  if (!status.emoji_name) return null;
  if (status.reaction_type === 'realm_emoji' || status.reaction_type === 'zulip_extra_emoji') {
    const url = realmEmoji[status.emoji_code ?? '']?.source_url;
    return isLocalUrl(url) ? <img className="status-emoji" src={url} alt={`:${status.emoji_name}:`} /> : null;
  }
  try {
    const char = String.fromCodePoint(...(status.emoji_code ?? '').split('-').map((h) => Number.parseInt(h, 16)));
    return (
      <span className="status-emoji" role="img" aria-label={status.emoji_name.replace(/_/g, ' ')}>
        {char}
      </span>
    );
  } catch {
    return null;
  }
}
