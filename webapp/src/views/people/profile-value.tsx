import type { UserRecord } from '../../state/types';

export interface ProfileField {
  id: number;
  name: string;
  type: number;
  field_data?: string;
}

/** Zulip's custom profile field types. */
const SELECT = 3;
const LINK = 5;
const USERS = 6;

function safeLink(value: string): string | null {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

/** A profile field's value as it reads: a choice's text, people's names, a link. */
export function ProfileValue({ field, value, users }: { field: ProfileField; value: string; users: Map<number, UserRecord> }) {
  if (field.type === SELECT) {
    try {
      const options = JSON.parse(field.field_data ?? '{}') as Record<string, { text: string }>;
      return <>{options[value]?.text ?? value}</>;
    } catch {
      return <>{value}</>;
    }
  }
  if (field.type === USERS) {
    try {
      const ids = JSON.parse(value) as number[];
      return <>{ids.map((id) => users.get(id)?.full_name ?? String(id)).join(', ')}</>;
    } catch {
      return <>{value}</>;
    }
  }
  if (field.type === LINK) {
    const href = safeLink(value);
    if (href)
      return (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {value}
        </a>
      );
  }
  return <>{value}</>;
}
