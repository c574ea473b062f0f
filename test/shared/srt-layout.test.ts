import { describe, expect, it } from 'vitest'
import { layOutCues, SRT_LAYOUT_DEFAULTS, wrapLines } from '../../src/shared/text/srt-layout'

const options = (changes: Partial<typeof SRT_LAYOUT_DEFAULTS> = {}) => ({ ...SRT_LAYOUT_DEFAULTS, ...changes })
const LONG = 'the quarterly numbers were better than we expected in every region and the board was pleased with the outcome'

describe('layOutCues (returnSrtFormat)', () => {
  it('keeps every line within maxCharsPerLine and every cue within maxLinesPerSubtitle lines', () => {
    const cues = layOutCues([{ start: 0, end: 6, text: LONG }], options({ maxCharsPerLine: 20, maxLinesPerSubtitle: 2 }))
    expect(cues.length).toBeGreaterThan(1)
    for (const cue of cues) {
      const lines = cue.text.split('\n')
      expect(lines.length).toBeLessThanOrEqual(2)
      for (const line of lines) expect(line.length).toBeLessThanOrEqual(20)
    }
    expect(cues.map((cue) => cue.text.replaceAll('\n', ' ')).join(' ')).toBe(LONG)
  })

  it('starts a new cue after a pause longer than maxMergeableGap and merges segments closer than it', () => {
    const segments = [
      { start: 0, end: 1, text: 'Hello there.' },
      { start: 1.1, end: 2, text: 'How are you?' },
      { start: 3, end: 4, text: 'Fine.' },
    ]
    expect(layOutCues(segments, options()).map((cue) => cue.text)).toEqual(['Hello there. How are you?', 'Fine.'])
    expect(layOutCues(segments, options({ maxMergeableGap: 0.05 })).map((cue) => cue.text)).toEqual([
      'Hello there.',
      'How are you?',
      'Fine.',
    ])
  })

  it('cuts cues at maxDuration, lengthens short ones to minDuration and keeps minGap between cues', () => {
    const cues = layOutCues(
      [
        { start: 0, end: 20, text: LONG },
        { start: 20.5, end: 20.6, text: 'Yes.' },
      ],
      options({ maxDuration: 5, maxCharsPerLine: 200, minDuration: 1, minGap: 0.1 }),
    )
    for (const [index, cue] of cues.entries()) {
      expect(cue.end - cue.start).toBeLessThanOrEqual(5 + 1e-9)
      const next = cues[index + 1]
      if (next) expect(next.start - cue.end).toBeGreaterThanOrEqual(0.1 - 1e-9)
    }
    const last = cues.at(-1)!
    expect(last.text).toBe('Yes.')
    expect(last.end - last.start).toBeCloseTo(1, 6)
  })

  it('gives a word longer than a line a line of its own, and drops empty segments', () => {
    expect(wrapLines(['a', 'supercalifragilistic', 'b'], 10)).toEqual(['a', 'supercalifragilistic', 'b'])
    expect(layOutCues([{ start: 0, end: 1, text: '   ' }], options())).toEqual([])
  })
})
