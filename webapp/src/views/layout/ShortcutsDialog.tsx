import { useEffect, useRef } from 'react';
import { SHORTCUTS } from '../../app/keyboard';

/** The keyboard shortcuts, opened with `?`. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
  }, []);
  return (
    <dialog ref={ref} className="modal shortcuts" aria-labelledby="shortcuts-title" onClose={onClose}>
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.does}>
              <th scope="row">
                {s.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 ? ' or ' : null}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </th>
              <td>{s.does}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="modal-actions">
        <button type="button" className="primary" onClick={() => ref.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}
