import { ApiError } from '../../errors';

/**
 * The two ways storing a file fails that are the server's, not the request's: the disk is full,
 * or the object store cannot be reached. Both refuse the request with nothing kept, and the server
 * goes on serving everything else.
 */

/** ENOSPC (no space) and EDQUOT (quota exceeded) from the file system. */
export function isNoSpace(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}

/** 507 Insufficient Storage: nothing a retry soon would change, until an operator frees space. */
export const noSpaceLeft = () => new ApiError('STORAGE_FULL', 'The server has no space left to store this file.', 507);

/** How long a client is asked to wait before trying again when the file store is unreachable. */
export const STORE_RETRY_AFTER_SECONDS = 30;

/** 503 with Retry-After: the file store did not answer; the same request may work shortly. */
export const storeUnavailable = () =>
  new ApiError(
    'STORAGE_UNAVAILABLE',
    'The file storage is temporarily unavailable. Please try again shortly.',
    503,
    {},
    {
      'Retry-After': String(STORE_RETRY_AFTER_SECONDS),
    },
  );

/** The file-system error as the API answers it when it is a full disk; any other as it is. */
export function asStorageError(error: unknown): unknown {
  return isNoSpace(error) ? noSpaceLeft() : error;
}

/** A failure of the store itself (full, unreachable), which a later try may not meet. */
export function isStoreFailure(error: unknown): boolean {
  return error instanceof ApiError && (error.code === 'STORAGE_FULL' || error.code === 'STORAGE_UNAVAILABLE');
}
