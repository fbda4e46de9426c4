import { useEffect, useId, useState } from 'react';
import { UpdateRealmSettingsMutation } from '../../api/operations/organization';
import { setApp, useApp } from '../../state/store';
import { mutate, useAction } from './admin-api';
import { GroupSelect, groupValueLabel } from './GroupSelect';
import { SYSTEM_GROUP_LABELS, type SettingSpec } from './realm-settings';
import { Status } from './Status';

function defaultText(spec: SettingSpec): string {
  const { kind } = spec;
  const value = spec.default;
  if (kind.type === 'bool') return value ? 'on' : 'off';
  if (kind.type === 'group') return SYSTEM_GROUP_LABELS[value as string] ?? String(value);
  if (kind.type === 'choice') return kind.options.find((o) => o.value === value)?.label ?? String(value);
  if (kind.type === 'limit') return value === null || value === -1 ? 'no limit' : String(value);
  if (kind.type === 'channel') return 'none';
  return value === '' || value === null ? 'empty' : String(value);
}

/** The value as the server stores it: "unlimited" and "default" are how no limit and no URL are sent. */
function storedValue(spec: SettingSpec, sent: unknown): unknown {
  if (sent === 'unlimited') return spec.name === 'message_retention_days' ? -1 : null;
  if (sent === 'default' && spec.name === 'jitsi_server_url') return null;
  return sent;
}

/** One organization setting: its control, Zulip's default, and what saving it came to. */
export function SettingControl({ spec, editable }: { spec: SettingSpec; editable: boolean }) {
  const value = useApp((s) => s.register[`realm_${spec.name}`]);
  // Only a choice whose options depend on the server follows the whole register answer.
  const register = useApp((s) => (spec.kind.type === 'choice' && spec.kind.optionsFrom ? s.register : null));
  const id = useId();
  const action = useAction();
  const save = async (next: unknown) => {
    const change = spec.kind.type === 'group' ? { new: next, old: value } : next;
    const done = await action.run(() => mutate(UpdateRealmSettingsMutation, { settings: { [spec.name]: change } }));
    // Shown at once; the realm event that follows sets the same value.
    if (done) setApp((s) => ({ register: { ...s.register, [`realm_${spec.name}`]: storedValue(spec, next) } }));
  };
  const hint = `${id}-hint`;
  const describedBy = `${hint} ${id}-status`;
  const disabled = !editable || action.busy;
  const control = (() => {
    const { kind } = spec;
    switch (kind.type) {
      case 'bool':
        return (
          <input
            id={id}
            type="checkbox"
            checked={value === true}
            disabled={disabled}
            aria-describedby={describedBy}
            onChange={(e) => void save(e.target.checked)}
          />
        );
      case 'choice': {
        const options = kind.optionsFrom && register ? kind.optionsFrom(register) : kind.options;
        return (
          <select
            id={id}
            value={String(value ?? '')}
            disabled={disabled}
            aria-describedby={describedBy}
            onChange={(e) => {
              const picked = options.find((o) => String(o.value) === e.target.value);
              if (picked) void save(picked.value);
            }}
          >
            {options.map((o) => (
              <option key={String(o.value)} value={String(o.value)}>
                {o.label}
              </option>
            ))}
          </select>
        );
      }
      case 'channel':
        return <ChannelPicker id={id} value={Number(value ?? -1)} disabled={disabled} describedBy={describedBy} onChange={(v) => void save(v)} />;
      case 'group':
        return editable ? (
          <GroupSelect id={id} value={value} kind={kind} disabled={disabled} describedBy={describedBy} onChange={(v) => void save(v)} />
        ) : (
          <output id={id}>{groupValueLabel(value)}</output>
        );
      default:
        return <TextSetting id={id} spec={spec} value={value} disabled={disabled} describedBy={describedBy} onSave={(v) => void save(v)} />;
    }
  })();
  return (
    <div className={`org-setting org-setting-${spec.kind.type}`}>
      <label htmlFor={id}>{spec.label}</label>
      {control}
      <span className="soft org-default" id={hint}>
        Default: {defaultText(spec)}
      </span>
      <Status error={action.error} done={action.done} id={`${id}-status`} />
    </div>
  );
}

function ChannelPicker(props: { id: string; value: number; disabled: boolean; describedBy: string; onChange: (id: number) => void }) {
  const channels = useApp((s) => s.channels);
  const list = [...channels.values()].filter((c) => !c.is_archived).sort((a, b) => a.name.localeCompare(b.name));
  return (
    <select
      id={props.id}
      value={props.value}
      disabled={props.disabled}
      aria-describedby={props.describedBy}
      onChange={(e) => props.onChange(Number(e.target.value))}
    >
      <option value={-1}>Disabled</option>
      {list.map((c) => (
        <option key={c.stream_id} value={c.stream_id}>
          #{c.name}
        </option>
      ))}
    </select>
  );
}

/** Text, numbers and limits: saved when the field is left or Enter is pressed, if changed. */
function TextSetting(props: { id: string; spec: SettingSpec; value: unknown; disabled: boolean; describedBy: string; onSave: (value: unknown) => void }) {
  const { kind } = props.spec;
  const shown = props.value === null || props.value === undefined || (kind.type === 'limit' && props.value === -1) ? '' : String(props.value);
  const [text, setText] = useState(shown);
  useEffect(() => setText(shown), [shown]);
  const commit = () => {
    if (text === shown) return;
    const trimmed = text.trim();
    if (kind.type === 'limit') props.onSave(trimmed === '' ? 'unlimited' : Number(trimmed));
    else if (kind.type === 'number') props.onSave(Number(trimmed));
    else if (props.spec.name === 'jitsi_server_url') props.onSave(trimmed === '' ? 'default' : trimmed);
    else props.onSave(text);
  };
  const common = {
    id: props.id,
    value: text,
    disabled: props.disabled,
    'aria-describedby': props.describedBy,
    onBlur: commit,
  };
  if (kind.type === 'text' && kind.long) return <textarea {...common} rows={3} onChange={(e) => setText(e.target.value)} />;
  return (
    <input
      {...common}
      type={kind.type === 'text' ? 'text' : 'number'}
      min={kind.type === 'text' ? undefined : 0}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') commit();
      }}
    />
  );
}
