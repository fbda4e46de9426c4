import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { ZoomConfig } from '../../config';
import { inTransaction } from '../../db/unit-of-work';
import type { AppDeps } from '../deps';
import type { StateSlice } from '../register/slice';
import type { User } from '../users/model';

/**
 * A member's token for Zoom's per-user OAuth app. It is stored sealed (AES-256-GCM under a key
 * derived from the app's client secret), so a database copy alone does not let anyone create
 * meetings as the member; a rotated secret makes old tokens unreadable, which counts as none.
 * Tokens are never logged nor returned by any API: clients only learn `has_zoom_token`.
 */
export interface ZoomUserToken {
  accessToken: string;
  refreshToken: string | null;
  /** When the access token expires (ms since the epoch); null when Zoom did not say. */
  expiresAt: number | null;
}

export const HAS_ZOOM_TOKEN_EVENT = 'has_zoom_token';

const keyOf = (zoom: ZoomConfig) => crypto.createHmac('sha256', zoom.clientSecret).update('parley zoom user token').digest();

function seal(zoom: ZoomConfig, token: ZoomUserToken): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv('aes-256-gcm', keyOf(zoom), iv);
  const data = Buffer.concat([cipher.update(JSON.stringify(token), 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
}

function open(zoom: ZoomConfig, sealed: string): ZoomUserToken | null {
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== 'v1') return null;
  const [iv, tag, data] = parts.slice(1).map((part) => Buffer.from(part, 'base64url'));
  try {
    const decipher = crypto.createDecipheriv('aes-256-gcm', keyOf(zoom), iv);
    decipher.setAuthTag(tag);
    const token = JSON.parse(Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8'));
    return typeof token?.accessToken === 'string' ? (token as ZoomUserToken) : null;
  } catch {
    return null;
  }
}

/**
 * The member's token: absent when none is stored, null when one is stored but cannot be opened
 * (sealed under an earlier client secret).
 */
export async function zoomTokenOf(deps: AppDeps, zoom: ZoomConfig, userId: number): Promise<ZoomUserToken | null | undefined> {
  const row = await deps.knex('zoom_tokens').where('user_id', userId).first('sealed');
  return row ? open(zoom, row.sealed) : undefined;
}

async function hasZoomToken(db: Knex, userId: number): Promise<boolean> {
  return (await db('zoom_tokens').where('user_id', userId).first('user_id')) !== undefined;
}

/**
 * Stores (or with null, forgets) the member's token and tells their clients whether they have
 * one, as Zulip does on every change, including a refresh.
 */
export async function setZoomToken(deps: AppDeps, zoom: ZoomConfig, user: User, token: ZoomUserToken | null): Promise<void> {
  await inTransaction(deps, deps.realmId, async (uow) => {
    if (token === null) await uow.trx('zoom_tokens').where('user_id', user.id).delete();
    else
      await uow
        .trx('zoom_tokens')
        .insert({ user_id: user.id, realm_id: deps.realmId, sealed: seal(zoom, token), updated_at: new Date() })
        .onConflict('user_id')
        .merge(['sealed', 'updated_at']);
    uow.emit({ type: HAS_ZOOM_TOKEN_EVENT, value: token !== null }, [user.id]);
  });
}

/** `video_calls`: whether the member has connected their Zoom account. */
export const videoCallsSlice: StateSlice = {
  fetchTypes: ['video_calls'],
  async fetch(deps, user) {
    return { has_zoom_token: await hasZoomToken(deps.knex, user.id) };
  },
  apply(state, event) {
    if (event.type === HAS_ZOOM_TOKEN_EVENT) state.has_zoom_token = event.value;
  },
};
