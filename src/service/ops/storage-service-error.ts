import { storageFailureOf } from '../../store/storage-errors'
import { ServiceError } from './service-error'
import { present } from '../../shared/present'

/** A write that waited the whole busy timeout for another process is worth trying again a second later. */
export const BUSY_RETRY_AFTER_SECONDS = 1

/**
 * A failure of the data folder as the contract's error, for every transport (the HTTP error
 * handler and IPC's invokeOperation): disk full is 507 INSUFFICIENT_STORAGE, a database
 * busy with another process's write is 503 UNAVAILABLE with Retry-After. Anything else is
 * not a storage failure (undefined).
 */
export function storageServiceError(error: unknown): ServiceError | undefined {
  switch (storageFailureOf(error)) {
    case 'disk-full':
      return new ServiceError(
        'INSUFFICIENT_STORAGE',
        "The data folder's disk is full: nothing was written. Reads still work; free some space and writes work again by themselves.",
      )
    case 'busy':
      return new ServiceError(
        'UNAVAILABLE',
        `The database is busy with another VoiceDesk process on the same data folder: nothing was written. Try again in ${BUSY_RETRY_AFTER_SECONDS} s.`,
        [],
        BUSY_RETRY_AFTER_SECONDS,
      )
    default:
      return undefined
  }
}

/** The 507 a write gets while the data folder's disk is known to be full (before it is even tried). */
export function diskFullServiceError(): ServiceError {
  return present(storageServiceError({ code: 'SQLITE_FULL' }), 'the disk-full error')
}
