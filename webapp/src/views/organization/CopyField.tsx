import { useId, useState } from 'react';

/** A read-only value with a Copy button (links, webhook URLs). */
export function CopyField({ label, value }: { label: string; value: string }) {
  const id = useId();
  const [copied, setCopied] = useState<string | null>(null);
  return (
    <div className="org-copy">
      <label htmlFor={id}>{label}</label>
      <div className="org-row">
        <input id={id} readOnly value={value} onFocus={(e) => e.target.select()} />
        <button
          type="button"
          aria-label={`Copy ${label.toLowerCase()}`}
          onClick={() =>
            void navigator.clipboard.writeText(value).then(
              () => setCopied('Copied'),
              () => setCopied('Copying was refused: select the text and copy it.'),
            )
          }
        >
          Copy
        </button>
      </div>
      {copied ? (
        <p className="org-done" role="status">
          {copied}
        </p>
      ) : null}
    </div>
  );
}
