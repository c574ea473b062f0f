/**
 * Media longer than the caller allowed (an upload, a fetched file): refused whole, so nothing
 * of it is kept. The code is the job error code a transcription fails with.
 */
export class MediaTooLargeError extends Error {
  readonly code = 'MEDIA_TOO_LARGE'

  constructor(readonly maxBytes: number) {
    super(`The media is larger than the limit of ${describeBytes(maxBytes)}`)
    this.name = 'MediaTooLargeError'
  }
}

/** 2 GiB, 512 MiB, 300 KiB, 17 bytes: a limit as people read it. */
export function describeBytes(bytes: number): string {
  const units: [number, string][] = [
    [1024 ** 3, 'GiB'],
    [1024 ** 2, 'MiB'],
    [1024, 'KiB'],
  ]
  for (const [size, unit] of units) {
    if (bytes >= size) {
      const value = bytes / size
      return `${Number.isInteger(value) ? value : value.toFixed(1)} ${unit}`
    }
  }
  return `${bytes} bytes`
}
