import { describe, expect, it } from 'vitest'

import { MissingValueError, present } from '../../src/shared/present'

describe('present', () => {
  it('answers the value itself, falsy ones too (0, empty text, false, NaN)', () => {
    const object = { a: 1 }
    expect(present(object, 'the object')).toBe(object)
    for (const value of [0, '', false, Number.NaN]) expect(present(value, 'a falsy value')).toBe(value)
  })

  it('throws a MissingValueError naming what was missing, for undefined and for null', () => {
    for (const value of [undefined, null]) {
      expect(() => present(value, 'the voice of TTS job j1')).toThrow(MissingValueError)
      expect(() => present(value, 'the voice of TTS job j1')).toThrow('the voice of TTS job j1 is missing')
    }
    expect(() => present([][0], 'the first issue')).toThrow(expect.objectContaining({ name: 'MissingValueError' }))
  })
})
