import type { UploadItem } from './useUploads';

/** Uploads under way, with their progress, and those that failed, with the server's reason. */
export function UploadList({ uploads, onDismiss }: { uploads: UploadItem[]; onDismiss: (id: number) => void }) {
  if (uploads.length === 0) return null;
  return (
    <ul className="compose-uploads" aria-label="Uploads">
      {uploads.map((u) =>
        u.error ? (
          <li key={u.id} className="upload-error" role="alert">
            {u.name}: {u.error}
            <button type="button" aria-label={`Dismiss ${u.name}`} onClick={() => onDismiss(u.id)}>
              ×
            </button>
          </li>
        ) : (
          <li key={u.id}>
            <span>{u.name}</span>
            <progress max={1} value={u.progress} aria-label={`Uploading ${u.name}`} />
          </li>
        ),
      )}
    </ul>
  );
}
