import type { AppDeps } from '../deps';
import { inTransaction } from '../../db/unit-of-work';
import { errors } from '../../errors';
import { activeUserIds, requireAdmin } from '../users/access';
import type { User } from '../users/model';
import { Realm } from '../realm/model';
import { LogoKind, realmIconUrl, realmLogoUrl } from '../realm/queries';
import { storeBytes } from './avatars';
import { fittedPng, squarePng } from './images';
import { fileStore } from './stores';

/**
 * The organization's icon (a 100 px square) and day and night logos (PNG within 800 × 100), uploaded
 * by administrators; everyone hears of a change through a `realm` update_dict event, as in Zulip.
 */
export const MAX_ICON_FILE_SIZE_MIB = 5;
export const MAX_LOGO_FILE_SIZE_MIB = 5;
const MIB = 1024 * 1024;

export type RealmImage = 'icon' | LogoKind;

export const realmImageKey = (realmId: number, image: RealmImage, version: number) => `realm/${realmId}/${image}/${version}.png`;

const COLUMNS: Record<
  RealmImage,
  { source: 'icon_source' | 'logo_source' | 'night_logo_source'; version: 'icon_version' | 'logo_version' | 'night_logo_version'; fallback: string }
> = {
  icon: { source: 'icon_source', version: 'icon_version', fallback: 'G' },
  logo: { source: 'logo_source', version: 'logo_version', fallback: 'D' },
  night_logo: { source: 'night_logo_source', version: 'night_logo_version', fallback: 'D' },
};

function eventData(deps: AppDeps, realm: Realm, image: RealmImage): Record<string, string> {
  if (image === 'icon') return { icon_url: realmIconUrl(realm), icon_source: realm.icon_source };
  return { [`${image}_url`]: realmLogoUrl(realm, image, deps.config.externalUrl), [`${image}_source`]: realm[COLUMNS[image].source] };
}

async function change(deps: AppDeps, actor: User, image: RealmImage, bytes: Buffer | null): Promise<Record<string, string>> {
  requireAdmin(actor);
  const columns = COLUMNS[image];
  const store = fileStore(deps.config);
  let previous = 0;
  let written: string | null = null;
  let done = false;
  try {
    const data = await inTransaction(deps, deps.realmId, async (uow) => {
      const realm = await Realm.query(uow.trx).findById(deps.realmId).forUpdate().throwIfNotFound();
      previous = realm[columns.source] === 'U' ? realm[columns.version] : 0;
      const version = realm[columns.version] + 1;
      if (bytes) {
        written = realmImageKey(deps.realmId, image, version);
        await storeBytes(deps, written, bytes);
      }
      const patch = { [columns.source]: bytes ? 'U' : columns.fallback, [columns.version]: version };
      await Realm.query(uow.trx).patch(patch).where({ id: deps.realmId });
      const data = eventData(deps, Object.assign(realm, patch), image);
      uow.emit({ type: 'realm', op: 'update_dict', property: image, data }, await activeUserIds(uow.trx, deps.realmId));
      return data;
    });
    done = true;
    return data;
  } finally {
    // The files the organization's row does not name (any more) go.
    // Best effort: what cannot be deleted now, the orphan sweep finds.
    if (!done && written) await store.delete(written).catch(() => undefined);
    if (done && previous > 0) await store.delete(realmImageKey(deps.realmId, image, previous)).catch(() => undefined);
  }
}

function oneImage(files: { data: Buffer }[], what: string, maxMib: number): Buffer {
  if (files.length !== 1) throw errors.badRequest(`You must upload exactly one ${what}.`);
  if (files[0].data.length > maxMib * MIB) throw errors.badRequest(`Uploaded file is larger than the allowed limit of ${maxMib} MiB`);
  return files[0].data;
}

/** POST /realm/icon; answers the new icon URL. */
export async function uploadRealmIcon(deps: AppDeps, actor: User, files: { data: Buffer }[]): Promise<string> {
  requireAdmin(actor);
  const png = await squarePng(oneImage(files, 'icon', MAX_ICON_FILE_SIZE_MIB), 100);
  return (await change(deps, actor, 'icon', png)).icon_url;
}

/** DELETE /realm/icon: back to the default identicon. */
export async function deleteRealmIcon(deps: AppDeps, actor: User): Promise<Record<string, string>> {
  return change(deps, actor, 'icon', null);
}

/** POST /realm/logo (`night` for the dark theme's). */
export async function uploadRealmLogo(deps: AppDeps, actor: User, files: { data: Buffer }[], night: boolean): Promise<void> {
  requireAdmin(actor);
  const png = await fittedPng(oneImage(files, 'logo', MAX_LOGO_FILE_SIZE_MIB), 800, 100);
  await change(deps, actor, night ? 'night_logo' : 'logo', png);
}

/** DELETE /realm/logo: back to the default logo. */
export async function deleteRealmLogo(deps: AppDeps, actor: User, night: boolean): Promise<void> {
  await change(deps, actor, night ? 'night_logo' : 'logo', null);
}
