import { describe, expect, it } from 'vitest'
import { codePointLength, composeWithinLimit, fitToLength, hashtagsFor, toHashtag } from '../../../src/engines/ai-content/text-fitting'

describe('text fitting', () => {
  it('counts code points, not UTF-16 units', () => {
    expect(codePointLength('👋🧵')).toBe(2)
    expect('👋🧵'.length).toBe(4)
    expect(codePointLength('الري')).toBe(4)
  })

  it('cuts at a word boundary with an ellipsis, within the limit, never splitting an emoji', () => {
    const text = 'Heat pumps move heat rather than making it, which is why they are efficient 👍'
    const cut = fitToLength(text, 40)
    expect(codePointLength(cut)).toBeLessThanOrEqual(40)
    expect(cut).toBe('Heat pumps move heat rather than making…')
    expect(fitToLength(text, 500)).toBe(text)
    expect(codePointLength(fitToLength('👍'.repeat(50), 10))).toBe(10)
  })

  it('keeps head and tail, and as many body blocks as fit', () => {
    const post = composeWithinLimit(
      { head: ['Hook.'], body: ['First point is here.', 'Second point is longer than the room left.'], tail: ['#Tag'] },
      '\n\n',
      40,
    )
    expect(post).toBe('Hook.\n\nFirst point is here.\n\n#Tag')
    expect(codePointLength(composeWithinLimit({ head: ['x'.repeat(80)], body: [], tail: ['#Tag'] }, '\n\n', 50))).toBeLessThanOrEqual(50)
  })

  it('makes hashtags in CamelCase for English and with underscores for Arabic', () => {
    expect(toHashtag('heat pumps', 'en')).toBe('#HeatPumps')
    expect(toHashtag('air-source heat', 'en')).toBe('#AirSourceHeat')
    expect(toHashtag('الري بالتنقيط', 'ar')).toBe('#الري_بالتنقيط')
    expect(toHashtag('2024', 'en')).toBe('')
    expect(hashtagsFor(['heat pumps', 'Heat Pumps', 'insulation', 'grants'], 'en', 2)).toEqual(['#HeatPumps', '#Insulation'])
  })
})
