import { registerReadReceiptsSetting } from '../messages/read-receipts';
import { storedRealmSetting } from './setting-store';
import { REALM_SETTINGS_BY_NAME } from './catalog';

const readReceiptsDefault = REALM_SETTINGS_BY_NAME.get('enable_read_receipts')!.default as boolean;

/** Features that consult organization settings read the stored values. */
export function connectRealm(): void {
  registerReadReceiptsSetting((db, realmId) => storedRealmSetting(db, realmId, 'enable_read_receipts', readReceiptsDefault));
}
