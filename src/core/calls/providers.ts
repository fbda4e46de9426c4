import type { Config } from '../../config';
import { errors } from '../../errors';

export interface VideoChatProvider {
  name: string;
  id: number;
}

/**
 * The organization's call providers, with Zulip's ids (2 was Google Hangouts). Zoom's per-user
 * OAuth app (3) and its server-to-server app (5) are both named "Zoom", as in Zulip, since only
 * one Zoom integration is ever configured.
 */
export const VIDEO_CHAT_PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
  zoom: { name: 'Zoom', id: 3 },
  big_blue_button: { name: 'BigBlueButton', id: 4 },
  zoom_server_to_server: { name: 'Zoom', id: 5 },
  constructor_groups: { name: 'Constructor Groups', id: 6 },
  nextcloud_talk: { name: 'Nextcloud Talk', id: 7 },
} as const satisfies Record<string, VideoChatProvider>;

export const VIDEO_CHAT_PROVIDER_IDS: readonly number[] = Object.values(VIDEO_CHAT_PROVIDERS).map((provider) => provider.id);

/** The providers an administrator may choose on this server: those whose credentials are configured. */
export function availableVideoChatProviders(config: Config): Record<string, VideoChatProvider> {
  const offered: Record<keyof typeof VIDEO_CHAT_PROVIDERS, boolean> = {
    disabled: true,
    jitsi_meet: true,
    zoom: config.zoom !== null && config.zoom.accountId === null,
    big_blue_button: config.bigBlueButton !== null,
    zoom_server_to_server: config.zoom !== null && config.zoom.accountId !== null,
    constructor_groups: config.constructorGroups !== null,
    nextcloud_talk: config.nextcloudTalk !== null,
  };
  return Object.fromEntries(Object.entries(VIDEO_CHAT_PROVIDERS).filter(([key]) => offered[key as keyof typeof VIDEO_CHAT_PROVIDERS]));
}

/** Refuses a provider this server cannot run, with the message Zulip gives for an unknown one. */
export function requireAvailableVideoChatProvider(config: Config, id: number): void {
  if (!Object.values(availableVideoChatProviders(config)).some((provider) => provider.id === id)) {
    throw errors.badRequest(`Invalid video_chat_provider ${id}`);
  }
}

/** A provider's calls asked for while its credentials are not configured. */
export const providerNotConfigured = (provider: string) => errors.badRequest(`${provider} credentials have not been configured`);

/** The provider's answer was not the call asked for. */
export const failedToCreateCall = (provider: string) => errors.badRequest(`Failed to create ${provider} call`);

/** The provider could not be reached, or answered with an HTTP error. */
export const providerUnreachable = (provider: string, reason: string) => errors.badRequest(`Error connecting to the ${provider} server: ${reason}`);

/** Why a request to a provider failed, without anything it sent back. */
export function failureReason(error: unknown): string {
  if ((error as Error).name === 'TimeoutError') return 'timed out';
  const code = (error as { cause?: { code?: unknown } }).cause?.code;
  return typeof code === 'string' ? code : 'connection failed';
}

/** How long a provider has to answer, as in Zulip. */
export const PROVIDER_TIMEOUT_MS = 5000;

/** What a provider answered a POST with: its status, and its body when that is JSON (else null). */
export interface ProviderAnswer {
  ok: boolean;
  status: number;
  body: unknown;
}

/** A POST to a provider with a timeout and no redirects; one that cannot be reached is `providerUnreachable`. */
export async function postToProvider(
  provider: string,
  url: string,
  init: { headers: Record<string, string>; body: string },
  timeoutMs: number = PROVIDER_TIMEOUT_MS,
): Promise<ProviderAnswer> {
  try {
    const response = await fetch(url, { method: 'POST', ...init, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    return { ok: response.ok, status: response.status, body: await response.json().catch(() => null) };
  } catch (error) {
    throw providerUnreachable(provider, failureReason(error));
  }
}
