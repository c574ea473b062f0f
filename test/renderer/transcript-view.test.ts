import { describe, expect, it } from 'vitest'
import type { Job } from '../../src/shared/api/jobs'
import { lineIndexAt, otherLanguage, progressPercent, subtitleFileName, transcriptViewOf } from '../../src/renderer/src/lib/transcript-view'
import { errorText } from '../../src/renderer/src/lib/readable-errors'
import { OperatorError } from '../../src/renderer/src/api/operator-error'

function job(fields: Partial<Job>): Job {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    title: 'Support call',
    model: 'whisper',
    type: 'TRANSCRIPTION',
    processingType: 'ASYNC',
    webhookUrl: null,
    totalCost: 3,
    usageTime: '4.000',
    fromLng: null,
    toLng: null,
    fromScript: null,
    toScript: null,
    mediaUrl: null,
    jobResponse: null,
    status: 'COMPLETED',
    relevantJobId: null,
    agentDetails: null,
    apiKeyId: '00000000-0000-4000-8000-0000000000aa',
    billingId: null,
    userId: '00000000-0000-4000-8000-0000000000bb',
    systemModelKey: 'stt-openai-compatible',
    voiceAgentId: null,
    createdAt: '2026-11-24T10:00:00.000Z',
    updatedAt: '2026-11-24T10:00:00.000Z',
    ...fields,
  }
}

const SEGMENTS = [
  { start: 0, end: 1.5, text: 'Hello.' },
  { start: 1.5, end: 3, text: 'How can I help?' },
]
const transcription = job({
  fromLng: 'en',
  jobResponse: { text: 'Hello. How can I help?', language: null, durationSeconds: 3.2, segments: SEGMENTS },
})

describe('transcriptViewOf', () => {
  it("reads a finished transcription: its lines, the language asked for when none was detected, the media's duration", () => {
    expect(transcriptViewOf(transcription, null)).toEqual({
      kind: 'transcription',
      text: 'Hello. How can I help?',
      lines: SEGMENTS,
      fromLng: 'en',
      toLng: null,
      durationSeconds: 3.2,
      sourceText: null,
    })
  })

  it("pairs a translation's lines with its source's by position, only when they are as many", () => {
    const translated = [
      { start: 0, end: 1.5, text: 'مرحبًا.' },
      { start: 1.5, end: 3, text: 'كيف أساعدك؟' },
    ]
    const translation = job({
      id: '00000000-0000-4000-8000-000000000002',
      type: 'TRANSLATION',
      relevantJobId: transcription.id,
      toLng: 'ar',
      usageTime: '3.200',
      jobResponse: { text: 'مرحبًا. كيف أساعدك؟', fromLng: 'en', toLng: 'ar', segments: translated },
    })
    const view = transcriptViewOf(translation, transcription)!
    expect(view).toMatchObject({
      kind: 'translation',
      fromLng: 'en',
      toLng: 'ar',
      durationSeconds: 3.2,
      sourceText: 'Hello. How can I help?',
    })
    expect(view.lines).toEqual([
      { ...translated[0], source: 'Hello.' },
      { ...translated[1], source: 'How can I help?' },
    ])
    // Another job, or a source with another count of segments: no pairing, nothing made up.
    expect(transcriptViewOf(translation, job({ id: '00000000-0000-4000-8000-000000000009' }))!.lines[0]).not.toHaveProperty('source')
    const shorter = job({ jobResponse: { text: 'Hello.', language: 'en', durationSeconds: 1, segments: SEGMENTS.slice(0, 1) } })
    expect(transcriptViewOf(translation, shorter)!.lines[0]).not.toHaveProperty('source')
  })

  it('reads a translation of a text: no lines, its source text kept', () => {
    const view = transcriptViewOf(
      job({ type: 'TRANSLATION', usageTime: null, jobResponse: { text: 'Hello', fromLng: 'ar', toLng: 'en', sourceText: 'مرحبا' } }),
      null,
    )
    expect(view).toMatchObject({ kind: 'translation', lines: [], sourceText: 'مرحبا', durationSeconds: null })
  })

  it('shows nothing for a job that is running, failed, of another type, or whose result it cannot read', () => {
    expect(transcriptViewOf({ ...transcription, status: 'PENDING' }, null)).toBeNull()
    expect(transcriptViewOf({ ...transcription, status: 'FAILED' }, null)).toBeNull()
    expect(transcriptViewOf({ ...transcription, type: 'TTS' }, null)).toBeNull()
    expect(transcriptViewOf({ ...transcription, jobResponse: { text: 'x' } }, null)).toBeNull()
  })
})

describe('lineIndexAt', () => {
  const lines = Array.from({ length: 1_500 }, (_, index) => ({ start: index * 4.8 }))
  it('finds the last line started by a position, in a two-hour transcript', () => {
    expect(lineIndexAt(lines, 0)).toBe(0)
    expect(lineIndexAt(lines, 4.7)).toBe(0)
    // A seek to a line may land a hair before its start: it still counts as that line.
    expect(lineIndexAt(lines, 4.78)).toBe(1)
    expect(lineIndexAt(lines, 4.8)).toBe(1)
    expect(lineIndexAt(lines, 3_600)).toBe(750)
    expect(lineIndexAt(lines, 99_999)).toBe(1_499)
    expect(lineIndexAt([{ start: 2 }], 1)).toBe(-1)
    expect(lineIndexAt([], 1)).toBe(-1)
  })
})

describe('subtitleFileName', () => {
  it('names the file after the title, without what file systems refuse, Arabic kept', () => {
    expect(subtitleFileName('Support call', 'srt')).toBe('Support call.srt')
    expect(subtitleFileName('a/b\\c: "d"?*<e>|', 'vtt')).toBe('a b c d e.vtt')
    expect(subtitleFileName('مكالمة الدعم', 'srt')).toBe('مكالمة الدعم.srt')
    expect(subtitleFileName('..', 'srt')).toBe('subtitles.srt')
    expect(subtitleFileName('x'.repeat(200), 'vtt')).toBe(`${'x'.repeat(80)}.vtt`)
    expect(subtitleFileName('line\nbreak\u0000', 'srt')).toBe('line break.srt')
  })
})

describe('otherLanguage and progressPercent', () => {
  it('suggests the other language of the result', () => {
    expect(otherLanguage({ kind: 'transcription', fromLng: 'ar', toLng: null })).toBe('en')
    expect(otherLanguage({ kind: 'transcription', fromLng: null, toLng: null })).toBe('ar')
    expect(otherLanguage({ kind: 'translation', fromLng: 'en', toLng: 'ar' })).toBe('en')
  })
  it('shows whole percents, never 100 while the job runs', () => {
    expect(progressPercent(0)).toBe(0)
    expect(progressPercent(0.426)).toBe(42)
    expect(progressPercent(1)).toBe(99)
    expect(progressPercent(Number.NaN)).toBe(0)
  })
})

describe("a translation's refusals, for people", () => {
  it('says a source already in that language in the UI language', () => {
    const refused = new OperatorError({
      code: 'VALIDATION_ERROR',
      message: 'Invalid input',
      details: [
        {
          path: 'toLng',
          message: 'job 1 is already in English: ask for the other language (give fromLng when the source is in fact in another one)',
        },
      ],
    })
    expect(errorText(refused, 'en')).toBe('The source is already in that language: choose the other one.')
    expect(errorText(refused, 'ar')).toBe('المصدر بهذه اللغة أصلًا: اختر اللغة الأخرى.')
  })
})
