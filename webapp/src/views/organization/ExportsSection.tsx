import { useState } from 'react';
import { DeleteExportMutation, ExportConsentsQuery, RealmExportsQuery, StartExportMutation } from '../../api/operations/exports';
import { useApp } from '../../state/store';
import { mutate, useAction, useFetched, useMyRole, useReloadOn } from './admin-api';
import { Status } from './Status';

/** Zulip's export types. */
const PUBLIC = 'public';
const FULL_WITH_CONSENT = 'full_with_consent';
const TYPE_LABELS: Record<string, string> = {
  [PUBLIC]: 'Public data',
  [FULL_WITH_CONSENT]: 'Standard (with members’ consent)',
  full_without_consent: 'Full (all members’ private data)',
};

interface ExportRow {
  id: string;
  actingUserId: number | null;
  exportTime: number;
  exportType: string;
  exportUrl: string | null;
  pending: boolean;
  failedTimestamp: number | null;
  deletedTimestamp: number | null;
}

/**
 * #organization/data-exports-admin: the organization's exports (started, ready to download, failed or
 * deleted), starting a new one, and which members let their private data be exported. The list
 * follows the realm_export events, so an export shows as ready when the server has made it.
 */
export function ExportsSection() {
  const exports = useFetched(RealmExportsQuery, {});
  const consents = useFetched(ExportConsentsQuery, {});
  const changed = useApp((s) => s.realmExports);
  useReloadOn(changed, async () => {
    await Promise.all([exports.reload(), consents.reload()]);
  });
  const rows = [...(exports.data?.realmExports ?? [])].sort((a, b) => b.exportTime - a.exportTime);
  return (
    <>
      <p>
        Exports hold the organization’s data in Zulip’s export format. A public export has only what every member can see; a standard export adds the private
        data of the members who allow it.
      </p>
      <StartExport onStarted={() => void exports.reload()} />
      <h3>Exports</h3>
      <Status error={exports.error} />
      <ExportList rows={rows} />
      <h3>Members’ consent to private data exports</h3>
      <Status error={consents.error} />
      <ConsentTable rows={consents.data?.exportConsents ?? []} />
    </>
  );
}

function StartExport({ onStarted }: { onStarted: () => void }) {
  const owner = useMyRole() === 100;
  const [type, setType] = useState<string>(PUBLIC);
  const action = useAction();
  return (
    <form
      className="org-form"
      aria-label="Start an export"
      onSubmit={async (e) => {
        e.preventDefault();
        const done = await action.run(() => mutate(StartExportMutation, { exportType: type }), 'Export started');
        if (done) onStarted();
      }}
    >
      <label htmlFor="export-type">Export type</label>
      <select id="export-type" value={type} onChange={(e) => setType(e.target.value)} aria-describedby="export-type-hint">
        <option value={PUBLIC}>{TYPE_LABELS[PUBLIC]}</option>
        {/* The server lets only owners export private data. */}
        {owner ? <option value={FULL_WITH_CONSENT}>{TYPE_LABELS[FULL_WITH_CONSENT]}</option> : null}
      </select>
      <p className="soft" id="export-type-hint">
        {owner ? 'Only owners may export members’ private data.' : 'Only owners may export members’ private data; you may export public data.'}
      </p>
      <div className="org-row">
        <button type="submit" className="primary" disabled={action.busy}>
          Start export
        </button>
      </div>
      <Status error={action.error} done={action.done} />
    </form>
  );
}

function ExportList({ rows }: { rows: ExportRow[] }) {
  if (rows.length === 0) return <p className="empty">No exports yet.</p>;
  return (
    <table className="org-table" data-testid="export-list">
      <thead>
        <tr>
          <th scope="col">Requested by</th>
          <th scope="col">Type</th>
          <th scope="col">Time</th>
          <th scope="col">Status</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <ExportItem key={r.id} row={r} />
        ))}
      </tbody>
    </table>
  );
}

function statusOf(row: ExportRow): 'deleted' | 'failed' | 'pending' | 'ready' {
  if (row.deletedTimestamp !== null) return 'deleted';
  if (row.failedTimestamp !== null) return 'failed';
  if (row.pending || !row.exportUrl) return 'pending';
  return 'ready';
}

const STATUS_TEXT = { deleted: 'Deleted', failed: 'Failed', pending: 'Pending', ready: 'Ready' };

function ExportItem({ row }: { row: ExportRow }) {
  const who = useApp((s) => (row.actingUserId === null ? 'Unknown' : (s.users.get(row.actingUserId)?.full_name ?? `User ${row.actingUserId}`)));
  const action = useAction();
  const status = statusOf(row);
  const when = new Date(row.exportTime * 1000).toLocaleString();
  return (
    <tr data-export-id={row.id} data-status={status}>
      <td>{who}</td>
      <td>{TYPE_LABELS[row.exportType] ?? row.exportType}</td>
      <td>{when}</td>
      <td>
        {status === 'ready' && row.exportUrl ? (
          <a href={row.exportUrl} download aria-label={`Download the export of ${when}`}>
            Download
          </a>
        ) : (
          STATUS_TEXT[status]
        )}
      </td>
      <td className="org-actions">
        {status === 'ready' ? (
          <button
            type="button"
            className="danger"
            aria-label={`Delete the export of ${when}`}
            disabled={action.busy}
            onClick={() => void action.run(() => mutate(DeleteExportMutation, { id: Number(row.id) }), null)}
          >
            Delete
          </button>
        ) : null}
        <Status error={action.error} />
      </td>
    </tr>
  );
}

function ConsentTable({ rows }: { rows: { userId: number; consented: boolean }[] }) {
  const users = useApp((s) => s.users);
  const named = rows
    .map((r) => ({ ...r, name: users.get(r.userId)?.full_name ?? `User ${r.userId}` }))
    .sort((a, b) => Number(b.consented) - Number(a.consented) || a.name.localeCompare(b.name));
  if (named.length === 0) return <p className="empty">No members.</p>;
  const allowing = named.filter((r) => r.consented).length;
  return (
    <>
      <p data-testid="consent-summary">
        {allowing} of {named.length} members allow exporting their private data.
      </p>
      <table className="org-table" data-testid="consent-table">
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Private data export</th>
          </tr>
        </thead>
        <tbody>
          {named.map((r) => (
            <tr key={r.userId} data-user-id={r.userId} data-consented={r.consented}>
              <td>{r.name}</td>
              <td>{r.consented ? 'Allowed' : 'Not allowed'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
