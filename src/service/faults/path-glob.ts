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

/**
 * The literal whole segments every path the glob matches starts with, without a trailing `/`
 * (picomatch's scan): `/v1/voice-agents` for `/v1/voice-agents/*`, `/v1` for
 * `/v1/{jobs,voice-agents}/*`, the glob itself when it has no wildcard. `''` when nothing can be
 * told: `/**`, a negated glob, or an escape (`\*`), whose literal text differs from the path's.
 */
export function pathGlobBase(glob: string): string {
  const scan = picomatch.scan(glob)
  if (scan.negated || scan.prefix !== '' || scan.base.includes('\\')) return ''
  return withoutTrailingSlashes(scan.base)
}

/**
 * Every base a glob matching `path` may have (see pathGlobBase): `''`, then the path cut at
 * each `/`, then the whole path. `/v1/jobs/all` → `''`, `/v1`, `/v1/jobs`, `/v1/jobs/all`.
 */
export function pathBasesOf(path: string): string[] {
  const bases = new Set([''])
  for (let slash = path.indexOf('/', 1); slash !== -1; slash = path.indexOf('/', slash + 1))
    bases.add(withoutTrailingSlashes(path.slice(0, slash)))
  bases.add(withoutTrailingSlashes(path))
  return [...bases]
}

function withoutTrailingSlashes(text: string): string {
  let end = text.length
  while (end > 0 && text[end - 1] === '/') end -= 1
  return text.slice(0, end)
}
