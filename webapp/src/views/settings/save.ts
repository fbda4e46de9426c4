import type { AnyVariables, CombinedError, TypedDocumentNode } from '@urql/core';
import { graphQLClient } from '../../api/instance';
import { UpdateSettingsMutation } from '../../api/operations/settings';
import { getApp, setApp } from '../../state/store';

/** The server's own words for a refusal (without urql's "[GraphQL]" prefix). */
export function errorText(error: CombinedError): string {
  return error.graphQLErrors[0]?.message ?? error.networkError?.message ?? error.message;
}

export type Outcome<D> = { data: D; error: null } | { data: null; error: string };

/** Runs a mutation; the answer or the server's error message. */
export async function run<D, V extends AnyVariables>(doc: TypedDocumentNode<D, V>, variables: V): Promise<Outcome<D>> {
  const result = await graphQLClient().mutation(doc, variables).toPromise();
  if (result.error) return { data: null, error: errorText(result.error) };
  return { data: result.data as D, error: null };
}

/** `web_font_size_px` → `webFontSizePx`, as UpdateSettingsInput names the register's settings. */
export const camel = (name: string) => name.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * Saves some of the user's settings (register names). On success the store takes them at once, so
 * the rest of the app follows without waiting for the user_settings event (which then repeats them).
 */
export async function saveSettings(changes: Record<string, unknown>): Promise<string | null> {
  const input = Object.fromEntries(Object.entries(changes).map(([k, v]) => [camel(k), v]));
  const outcome = await run(UpdateSettingsMutation, { input });
  if (outcome.error !== null) return outcome.error;
  const known = Object.fromEntries(Object.entries(changes).filter(([k]) => k in getApp().settings));
  setApp((s) => ({ settings: { ...s.settings, ...known } }));
  return null;
}
