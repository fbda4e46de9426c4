import { type FormEvent, type ReactNode, useState } from 'react';
import { graphQLClient } from '../../../api/instance';
import { SendSubmessageMutation } from '../../../api/operations/widgets';
import { useApp } from '../../../state/store';
import type { Msg } from '../../../state/types';
import '../../../styles/widgets.css';
import { actions, type PollState, type TodoState, widgetState } from './widget-data';

/**
 * A message's poll or to-do list, drawn in place of its text. Each action is sent as a submessage;
 * the submessage event then updates the message in every tab, this one included.
 */
type Send = (content: object) => Promise<void>;

function useSend(messageId: number): { send: Send; error: string | null } {
  const [error, setError] = useState<string | null>(null);
  const send: Send = async (content) => {
    const result = await graphQLClient()
      .mutation(SendSubmessageMutation, { messageId, content: JSON.stringify(content) })
      .toPromise();
    setError(result.error ? (result.error.graphQLErrors[0]?.message ?? result.error.message) : null);
  };
  return { send, error };
}

function AddForm({ label, onAdd, withDescription }: { label: string; onAdd: (text: string, desc: string) => Promise<void>; withDescription?: boolean }) {
  const [text, setText] = useState('');
  const [desc, setDesc] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') return;
    await onAdd(text.trim(), desc.trim());
    setText('');
    setDesc('');
  };
  return (
    <form className="widget-add" onSubmit={submit}>
      <input type="text" value={text} onChange={(e) => setText(e.target.value)} placeholder={label} aria-label={label} />
      {withDescription ? <input type="text" value={desc} onChange={(e) => setDesc(e.target.value)} placeholder="Description" aria-label="Description" /> : null}
      <button type="submit">Add</button>
    </form>
  );
}

function Poll({ state, me, send }: { state: PollState; me: number; send: Send }) {
  const users = useApp((s) => s.users);
  const names = (ids: number[]) => ids.map((id) => users.get(id)?.full_name ?? 'Unknown user').join(', ');
  return (
    <div className="widget poll-widget">
      <h4 className="widget-title">{state.question || 'Poll'}</h4>
      <ul className="poll-options">
        {state.options.map((option) => {
          const mine = option.voters.includes(me);
          return (
            <li key={option.key}>
              <button
                type="button"
                className="poll-vote"
                aria-pressed={mine}
                aria-label={`${mine ? 'Remove your vote for' : 'Vote for'} ${option.option}`}
                onClick={() => void send(actions.vote(option, me))}
              >
                {option.voters.length}
              </button>
              <span className="poll-option">{option.option}</span>
              {option.voters.length > 0 ? <span className="poll-voters">({names(option.voters)})</span> : null}
            </li>
          );
        })}
      </ul>
      <AddForm label="New option" onAdd={(text) => send(actions.newOption(state, text))} />
    </div>
  );
}

function Todo({ state, send }: { state: TodoState; send: Send }) {
  return (
    <div className="widget todo-widget">
      <h4 className="widget-title">{state.title || 'Task list'}</h4>
      <ul className="todo-tasks">
        {state.tasks.map((task) => (
          <li key={task.key} className={task.completed ? 'todo-done' : undefined}>
            <label>
              <input type="checkbox" checked={task.completed} onChange={() => void send(actions.strike(task))} />
              <strong>{task.task}</strong>
              {task.desc ? <span className="todo-desc">: {task.desc}</span> : null}
            </label>
          </li>
        ))}
      </ul>
      <AddForm label="New task" withDescription onAdd={(text, desc) => send(actions.newTask(state, text, desc))} />
    </div>
  );
}

/** The message's widget, or `children` (its text) when it has none this app draws. */
export function MessageWidget({ message, children }: { message: Msg; children: ReactNode }) {
  const me = useApp((s) => s.me);
  const { send, error } = useSend(message.id);
  const state = message.submessages?.length ? widgetState(message.submessages, message.senderId, me) : null;
  if (!state) return children;
  return (
    <>
      {state.kind === 'poll' ? <Poll state={state} me={me} send={send} /> : <Todo state={state} send={send} />}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
