import { useApp } from '../../state/store';

/** Says when the server cannot be reached; the app reconnects by itself and catches up. */
export function ConnectionBanner() {
  const connection = useApp((s) => s.connection);
  if (connection !== 'reconnecting') return null;
  return (
    <div className="banner" role="status" data-testid="connection-banner">
      Unable to connect to the server. Reconnecting…
    </div>
  );
}
