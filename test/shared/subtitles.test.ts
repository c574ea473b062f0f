import { describe, expect, it } from 'vitest'
import { toSrt, toVtt } from '../../src/shared/text/subtitles'

const segments = [
  { start: 0, end: 2.5, text: ' Hello there. ' },
  { start: 2.5, end: 3661.0405, text: 'A long\n\n  second line' },
  { start: 3700, end: 3699, text: '   ' },
  { start: 3700, end: 3701, text: 'a --> b' },
]

describe('subtitles from segments', () => {
  it('writes SubRip: cues from 1, comma milliseconds, no blank line inside a cue, empty cues dropped', () => {
    expect(toSrt(segments)).toBe(
      '1\n00:00:00,000 --> 00:00:02,500\nHello there.\n\n' +
        '2\n00:00:02,500 --> 01:01:01,041\nA long\nsecond line\n\n' +
        '3\n01:01:40,000 --> 01:01:41,000\na --> b\n',
    )
  })

  it('writes WebVTT: the header, dot milliseconds, and no "-->" inside a cue', () => {
    expect(toVtt(segments)).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:02.500\nHello there.\n\n' +
        '00:00:02.500 --> 01:01:01.041\nA long\nsecond line\n\n' +
        '01:01:40.000 --> 01:01:41.000\na → b\n',
    )
  })

  it('keeps hours past a day, never negative times, and an end before its start moved to the start', () => {
    expect(toSrt([{ start: -1, end: 108_000.5, text: 'x' }])).toBe('1\n00:00:00,000 --> 30:00:00,500\nx\n')
    expect(toSrt([{ start: 5, end: 4, text: 'y' }])).toBe('1\n00:00:05,000 --> 00:00:05,000\ny\n')
    expect(toVtt([])).toBe('WEBVTT\n')
  })
})
