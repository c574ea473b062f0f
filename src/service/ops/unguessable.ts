import { randomBytes } from 'node:crypto'

/**
 * A random name no one can guess (192 bits, 32 URL-safe characters): what stands between a
 * link (job media, previews, one-use downloads) and whoever does not hold it.
 */
export function unguessable(): string {
  return randomBytes(24).toString('base64url')
}
