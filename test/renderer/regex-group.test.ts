import { describe, expect, it } from 'vitest'
import { group, MissingRegexGroupError } from '../../src/renderer/src/lib/regex-group'

describe('group: a capture group the pattern promises', () => {
  it('gives the text of a group that took part, an empty one included', () => {
    const match = /^(\w+)=(\d*)$/.exec('answer=')
    expect(match).not.toBeNull()
    if (!match) return
    expect(group(match, 1)).toBe('answer')
    expect(group(match, 2)).toBe('')
  })

  it('throws a named error, with the input, when the group did not take part (a reader that misread its pattern)', () => {
    const match = /^(a)|(b)$/.exec('a')
    expect(match).not.toBeNull()
    if (!match) return
    expect(() => group(match, 2)).toThrow(MissingRegexGroupError)
    expect(() => group(match, 2)).toThrow('Group 2 did not take part in the match of "a"')
    expect(() => group(match, 7)).toThrow(MissingRegexGroupError)
  })
})
