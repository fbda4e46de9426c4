import { type ReactNode, useId, useState } from 'react';
import { useApp } from '../../state/store';
import { saveSettings } from './save';

export type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved' } | { kind: 'error'; message: string };

/** A control's saving state and a way to save: the server's error message stays until the next try. */
export function useSaving(): [SaveState, (work: () => Promise<string | null>) => Promise<boolean>] {
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const save = async (work: () => Promise<string | null>) => {
    setState({ kind: 'saving' });
    const error = await work();
    setState(error === null ? { kind: 'saved' } : { kind: 'error', message: error });
    return error === null;
  };
  return [state, save];
}

/** "Saved" or the server's refusal, next to the control (announced to screen readers). */
export function SaveStatus({ state, id }: { state: SaveState; id?: string }) {
  if (state.kind === 'error')
    return (
      <span className="setting-error" role="alert" id={id}>
        {state.message}
      </span>
    );
  return (
    <span className="setting-status" role="status" id={id}>
      {state.kind === 'saving' ? 'Saving…' : state.kind === 'saved' ? 'Saved' : ''}
    </span>
  );
}

/** A titled group of settings. */
export function SettingsGroup({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="settings-group" aria-labelledby={id}>
      <h3 id={id}>{title}</h3>
      {children}
    </section>
  );
}

const useSetting = (name: string) => useApp((s) => s.settings[name]);

/** A boolean user setting, saved on change. */
export function Toggle({ name, label, disabled }: { name: string; label: string; disabled?: boolean }) {
  const value = useSetting(name);
  const [state, save] = useSaving();
  const id = `setting-${name}`;
  return (
    <div className="setting-row setting-toggle">
      <input
        type="checkbox"
        id={id}
        data-setting={name}
        checked={value === true}
        disabled={disabled || state.kind === 'saving'}
        onChange={(e) => void save(() => saveSettings({ [name]: e.target.checked }))}
      />
      <label htmlFor={id}>{label}</label>
      <SaveStatus state={state} />
    </div>
  );
}

export interface Option {
  value: string | number;
  label: string;
}

/** A user setting with a list of values (numbers stay numbers), saved on change. */
export function Choice({ name, label, options }: { name: string; label: string; options: Option[] }) {
  const value = useSetting(name);
  const [state, save] = useSaving();
  const id = `setting-${name}`;
  const numeric = typeof options[0]?.value === 'number';
  return (
    <div className="setting-row">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        data-setting={name}
        value={String(value ?? '')}
        disabled={state.kind === 'saving'}
        onChange={(e) => void save(() => saveSettings({ [name]: numeric ? Number(e.target.value) : e.target.value }))}
      >
        {options.map((o) => (
          <option key={o.value} value={String(o.value)}>
            {o.label}
          </option>
        ))}
      </select>
      <SaveStatus state={state} />
    </div>
  );
}

/** A whole-number user setting, saved when the field is left or Enter is pressed. */
export function NumberSetting({ name, label, min, max, step }: { name: string; label: string; min: number; max: number; step?: number }) {
  const value = useSetting(name);
  const [draft, setDraft] = useState<string | null>(null);
  const [state, save] = useSaving();
  const id = `setting-${name}`;
  const commit = () => {
    if (draft === null || Number(draft) === value) return setDraft(null);
    void save(() => saveSettings({ [name]: Number(draft) })).then((ok) => ok && setDraft(null));
  };
  return (
    <div className="setting-row">
      <label htmlFor={id}>{label}</label>
      <input
        type="number"
        id={id}
        data-setting={name}
        min={min}
        max={max}
        step={step ?? 1}
        value={draft ?? String(value ?? '')}
        onChange={(e) => setDraft(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
      />
      <SaveStatus state={state} />
    </div>
  );
}
