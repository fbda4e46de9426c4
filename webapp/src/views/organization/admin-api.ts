import type { AnyVariables, CombinedError, TypedDocumentNode } from '@urql/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { graphQLClient } from '../../api/instance';
import { useApp } from '../../state/store';

/** Zulip's roles by number. */
export const ROLES: { value: number; label: string }[] = [
  { value: 100, label: 'Owner' },
  { value: 200, label: 'Administrator' },
  { value: 300, label: 'Moderator' },
  { value: 400, label: 'Member' },
  { value: 600, label: 'Guest' },
];

export const roleName = (role: number) => ROLES.find((r) => r.value === role)?.label ?? `Role ${role}`;

/** The user's own role, live: a role change arrives as a realm_user event. */
export function useMyRole(): number {
  return useApp((s) => s.users.get(s.me)?.role ?? 400);
}

/** Administrators and owners: the controls Zulip shows only to them. The server decides all the same. */
export function useIsAdmin(): boolean {
  return useMyRole() <= 200;
}

/** The server's own words for a refusal. */
export function errorText(error: CombinedError | undefined): string | null {
  if (!error) return null;
  return error.graphQLErrors[0]?.message ?? error.networkError?.message ?? error.message;
}

export type Outcome<D> = { data: D; error: null } | { data: null; error: string };

/** Runs a mutation; resolves to its data or the server's error message. */
export async function mutate<D, V extends AnyVariables>(doc: TypedDocumentNode<D, V>, variables: V): Promise<Outcome<D>> {
  const result = await graphQLClient().mutation(doc, variables).toPromise();
  const error = errorText(result.error);
  if (error || !result.data) return { data: null, error: error ?? 'The server gave no answer.' };
  return { data: result.data, error: null };
}

/** A query asked from the network each time the view opens, and again on `reload()`. */
export function useFetched<D, V extends AnyVariables>(doc: TypedDocumentNode<D, V>, variables: V) {
  const [data, setData] = useState<D | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = JSON.stringify(variables);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the variables are compared by value (key).
  const reload = useCallback(async () => {
    const result = await graphQLClient().query(doc, variables, { requestPolicy: 'network-only' }).toPromise();
    setError(errorText(result.error));
    if (result.data) setData(result.data);
  }, [doc, key]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, reload };
}

/** A control's save state: busy while saving, the server's error when refused. */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const run = useCallback(async <D>(action: () => Promise<Outcome<D>>, doneText: string | null = 'Saved'): Promise<D | null> => {
    setBusy(true);
    setError(null);
    setDone(null);
    const outcome = await action();
    setBusy(false);
    if (outcome.error !== null) {
      setError(outcome.error);
      return null;
    }
    setDone(doneText);
    return outcome.data;
  }, []);
  return { busy, error, done, run, setError, setDone };
}

/** Asks again when `changed` changes (a collection the events keep), not when first drawn. */
export function useReloadOn(changed: unknown, reload: () => Promise<void>): void {
  const first = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the watched collection changes.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    void reload();
  }, [changed]);
}
