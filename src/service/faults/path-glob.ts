/**
 * A path glob as a regular expression: `*` stands for any characters within one segment,
 * `**` for any number of whole segments (none too), every other character for itself.
 * `/v1/voice-agents/*` matches `/v1/voice-agents/abc` but not `/v1/voice-agents/abc/x`;
 * `/v1/**` matches `/v1`, `/v1/jobs` and `/v1/jobs/all`.
 */
export function pathGlobToRegExp(glob: string): RegExp {
  let source = ''
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index]!
    if (char === '/' && glob.startsWith('/**', index) && (index + 3 === glob.length || glob[index + 3] === '/')) {
      source += '(?:/.*)?'
      index += 2
    } else if (char === '*' && glob[index + 1] === '*') {
      source += '.*'
      index += 1
    } else if (char === '*') {
      source += '[^/]*'
    } else {
      source += char.replace(/[.+?^${}()|[\]\\]/g, '\\$&')
    }
  }
  return new RegExp(`^${source}$`)
}
