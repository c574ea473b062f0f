import { Transform } from 'node:stream'
import { MediaTooLargeError } from './media-errors'

/**
 * A pass-through that counts the bytes going by and fails with MediaTooLargeError at the first
 * byte past `maxBytes`, so a write stops there rather than after the whole body.
 */
export function byteLimit(maxBytes: number): { stream: Transform; size: () => number } {
  let size = 0
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      size += chunk.length
      if (size > maxBytes) callback(new MediaTooLargeError(maxBytes))
      else callback(null, chunk)
    },
  })
  return { stream, size: () => size }
}
