import picomatch from 'picomatch'

/**
 * A fault rule's path glob, as a test of a request's path (picomatch): `*` stands for any
 * characters within one segment, `**` for any number of whole segments (none too), and braces
 * choose (`/v1/{jobs,voice-agents}/*`). `/v1/voice-agents/*` matches `/v1/voice-agents/abc`
 * but not `/v1/voice-agents/abc/x`; `/v1/**` matches `/v1`, `/v1/jobs` and `/v1/jobs/all`.
 */
export function pathGlobMatcher(glob: string): (path: string) => boolean {
  // dot: a segment may start with a dot like any other (an id, a file name); these are URL paths, not files.
  return picomatch(glob, { dot: true })
}
