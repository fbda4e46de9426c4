import type { UnitOfWork } from '../../db/unit-of-work';
import type { User } from '../users/model';

/**
 * Tells the inviter that their invitation was accepted, as a direct message from the
 * notification bot. Messages do not exist yet, so for now there is nothing to send.
 */
export async function notifyReferrerOfJoin(_uow: UnitOfWork, _referrerId: number, _newUser: User): Promise<void> {}
