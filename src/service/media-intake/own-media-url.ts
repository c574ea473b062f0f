/** A name media is stored under: letters, digits, `_` and `-`, and one extension (no path, no dot first). */
export const STORED_MEDIA_NAME = /^[A-Za-z0-9_-]{1,128}(\.[A-Za-z0-9]{1,16})?$/

const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]'])

/**
 * The media name when `url` is this service's own `/media/<name>` (at `baseUrl`, or at another
 * loopback name on the same port), else undefined. Such a URL is read from the media store:
 * /media answers loopback clients only, and in team mode another instance may not be reachable.
 */
export function ownMediaName(url: URL, baseUrl: string): string | undefined {
  let base: URL
  try {
    base = new URL(baseUrl)
  } catch {
    return undefined
  }
  if (url.protocol !== base.protocol || url.port !== base.port) return undefined
  const sameHost = url.hostname === base.hostname || (LOOPBACK_NAMES.has(url.hostname) && LOOPBACK_NAMES.has(base.hostname))
  if (!sameHost || !url.pathname.startsWith('/media/')) return undefined
  let name: string
  try {
    name = decodeURIComponent(url.pathname.slice('/media/'.length))
  } catch {
    return undefined
  }
  return STORED_MEDIA_NAME.test(name) ? name : undefined
}
