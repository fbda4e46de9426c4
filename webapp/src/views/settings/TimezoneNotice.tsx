import { useState } from 'react';
import { useApp } from '../../state/store';
import { saveSettings } from './save';

const browserZone = () => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone ?? '';
  } catch {
    return '';
  }
};

/**
 * Zulip's web_suggest_update_timezone: when this computer's time zone differs from the one in the
 * user's profile, offer to update it, or never to ask again. A notice rather than a modal dialog, so
 * that it never stands in the way of the app.
 */
export function TimezoneNotice() {
  const wanted = useApp((s) => s.settings.web_suggest_update_timezone !== false);
  const profileZone = useApp((s) => (s.settings.timezone as string | undefined) || s.users.get(s.me)?.timezone || '');
  const [dismissed, setDismissed] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const here = browserZone();
  if (!wanted || dismissed || !here || !profileZone || profileZone === here) return null;
  const save = async (changes: Record<string, unknown>) => {
    const problem = await saveSettings(changes);
    if (problem) setError(problem);
    else setDismissed(true);
  };
  return (
    <section className="timezone-notice" aria-label="Time zone">
      <p>
        Your time zone is {profileZone} in your profile, but {here} on this computer. Update it?
      </p>
      <div className="timezone-notice-actions">
        <button type="button" className="primary" onClick={() => void save({ timezone: here })}>
          Update to {here}
        </button>
        <button type="button" onClick={() => setDismissed(true)}>
          Not now
        </button>
        <button type="button" onClick={() => void save({ web_suggest_update_timezone: false })}>
          Don't ask again
        </button>
      </div>
      {error ? (
        <p className="timezone-notice-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
