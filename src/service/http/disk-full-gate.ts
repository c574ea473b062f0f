import type { DiskFullCondition } from '../../store/disk-full-condition'
import { diskFullServiceError } from '../ops/storage-service-error'
import type { RequestGate } from './request-gates'

/** POST routes that only read: the seed lists jobs with a POST. */
const READING_POSTS = new Set(['/v1/jobs/all'])
const READING_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * While the data folder's disk is known to be full, writes of the scope it guards are
 * answered 507 at once, without being tried: every caller gets the same clear answer (a
 * write might otherwise slip into space SQLite still holds, and the next one fail), and
 * nothing more is piled onto a disk that has no room. Reads go on. Runs after the key check.
 */
export function diskFullGate(diskFull: DiskFullCondition): RequestGate {
  // While the disk has room (always but for rare moments) it costs one read.
  return (request) => {
    if (!diskFull.isFull || READING_METHODS.has(request.method) || READING_POSTS.has(request.routeOptions.url ?? '')) return undefined
    return diskFullServiceError()
  }
}
