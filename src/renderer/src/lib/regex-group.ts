/** A capture group read as missing where its pattern promised it: the pattern and its reader disagree. */
export class MissingRegexGroupError extends Error {
  constructor(index: number, input: string) {
    super(`Group ${index} did not take part in the match of ${JSON.stringify(input)}`)
    this.name = 'MissingRegexGroupError'
  }
}

/**
 * The text of a capture group that always takes part when its pattern matches (not one under `?`
 * or `|`). The type of `match[n]` cannot know that; this says it, and throws if it is ever wrong.
 */
export function group(match: RegExpExecArray, index: number): string {
  const text = match[index]
  if (text === undefined) throw new MissingRegexGroupError(index, match.input)
  return text
}
