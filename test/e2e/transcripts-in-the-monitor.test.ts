// Transcriptions and translations in the jobs monitor, in Chromium at 1024×640 (English and
// Arabic): a finished transcription of 1,500 timed lines (its source a real WAV in the media
// store) shows few of them in the page, plays its media from the line clicked, copies, downloads
// SRT and WebVTT; a running one shows its progress in its row and its detail, moved live by
// job.changed; a translation shows its lines beside its source's and plays the source's media;
// Translate makes a new job: offline it fails with LLM_ENGINE_NOT_CONFIGURED (said in words),
// with a chat model it translates. The shell never scrolls.
// The chat model is a loopback double standing for a model server (translation-model-double.ts).
// Transcriptions are seeded (this branch's runtime does not run them yet); the running one is held
// by another "instance" (its lease), and its progress is written and announced as the runner would.
import { readFileSync } from 'node:fs'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeWavPcm16Mono } from '../../src/engines/audio/wav-file'
import type { OperatorEventHub } from '../../src/service/operator/operator-events'
import { sourceMediaName } from '../../src/service/ops/media-names'
import type { Runtime } from '../../src/service/runtime'
import type { JobRecord } from '../../src/store/records'
import { seedJob } from '../helpers/seed-jobs'
import { startTranslationModelDouble, type TranslationModelDouble } from '../helpers/translation-model-double'
import { SHELL_AT_REST, goToNth, latinUiText, launchChromium, openConsole, poll, shellOffsets, shot } from './page-helpers'

let browser: Browser | undefined
beforeAll(async () => {
  browser = await launchChromium()
}, 90_000)
afterAll(async () => {
  await browser?.close()
})

const LINES = 1_500
/** Each line 0.4 s: ten minutes of media. */
const LINE_SECONDS = 0.4
const SAMPLE_RATE = 8_000
const SEGMENTS = Array.from({ length: LINES }, (_, index) => ({
  start: Math.round(index * LINE_SECONDS * 1000) / 1000,
  end: Math.round((index + 1) * LINE_SECONDS * 1000) / 1000,
  text: `Line ${index + 1} of the town hall.`,
}))
const FULL_TEXT = SEGMENTS.map((segment) => segment.text).join(' ')
const FAR = () => Date.now() + 3_600_000

const WORDS = {
  en: {
    table: 'Jobs',
    translate: 'Translate',
    make: 'Make the translation',
    english: 'English',
    arabic: 'Arabic',
    duration: '10:00',
    notConfigured: 'No language-model engine is set up for translation',
    sameLanguage: 'The source is already in that language: choose the other one.',
    retry: 'Retry',
    cancel: 'Cancel',
  },
  ar: {
    table: 'المهام',
    translate: 'ترجمة',
    make: 'إنشاء الترجمة',
    english: 'الإنجليزية',
    arabic: 'العربية',
    duration: '10:00',
    notConfigured: '',
    sameLanguage: 'المصدر بهذه اللغة أصلًا: اختر اللغة الأخرى.',
    retry: 'إعادة المحاولة',
    cancel: 'إلغاء',
  },
} as const

interface Seeded {
  transcription: JobRecord
  running: JobRecord
  translation: JobRecord
}

/** A finished transcription with real media, a running one at 25%, a finished translation of the first. */
async function seed(runtime: Runtime): Promise<Seeded> {
  const mediaFile = sourceMediaName('town-hall.wav')
  // A quiet tone: real audio the player decodes and seeks in.
  const samples = new Int16Array(SAMPLE_RATE * LINES * LINE_SECONDS)
  for (let index = 0; index < samples.length; index += 1)
    samples[index] = Math.round(800 * Math.sin((2 * Math.PI * 440 * index) / SAMPLE_RATE))
  await runtime.context.media.put(mediaFile, writeWavPcm16Mono(samples, SAMPLE_RATE))
  const transcription = await seedJob(runtime, {
    title: 'Town hall meeting',
    mediaFile,
    sourceUrl: null,
    fromLng: null,
    text: FULL_TEXT,
    usageSeconds: LINES * LINE_SECONDS,
    jobResponse: { text: FULL_TEXT, language: 'en', durationSeconds: LINES * LINE_SECONDS, segments: SEGMENTS },
    createdAt: '2026-11-24T09:00:00.000Z',
  })
  const running = await seedJob(runtime, {
    title: 'Long lecture',
    status: 'PENDING',
    text: null,
    jobResponse: null,
    mediaFile: sourceMediaName('lecture.mp3'),
    leaseOwner: 'another-instance',
    leaseExpiresAt: FAR(),
    createdAt: '2026-11-24T09:01:00.000Z',
  })
  await runtime.store.jobs.heartbeat(running.id, 'another-instance', FAR(), 0.25)
  const translated = SEGMENTS.map((segment, index) => ({ ...segment, text: `السطر ${index + 1} من الاجتماع.` }))
  const translation = await seedJob(runtime, {
    type: 'TRANSLATION',
    title: 'Translation (ar): Town hall meeting',
    relevantJobId: transcription.id,
    fromLng: 'en',
    toLng: 'ar',
    text: translated.map((segment) => segment.text).join(' '),
    jobResponse: { text: translated.map((segment) => segment.text).join(' '), fromLng: 'en', toLng: 'ar', segments: translated },
    usageSeconds: LINES * LINE_SECONDS,
    createdAt: '2026-11-24T09:02:00.000Z',
  })
  return { transcription, running, translation }
}

/** The running job's progress, written and announced as the runner does it (job.changed). */
async function reportProgress(runtime: Runtime, job: JobRecord, fraction: number): Promise<void> {
  expect(await runtime.store.jobs.heartbeat(job.id, 'another-instance', FAR(), fraction)).toBe(true)
  ;(runtime.events as OperatorEventHub).emit(() => ({
    type: 'job.changed',
    job: { id: job.id, status: 'PENDING', type: job.type, title: job.title },
    runningJobs: 1,
    pendingJobs: 0,
  }))
}

function audioTime(page: Page): Promise<number> {
  return page.locator('.transcript-section audio').evaluate((element) => (element as unknown as { currentTime: number }).currentTime)
}

async function pause(page: Page): Promise<void> {
  await page.locator('.transcript-section audio').evaluate((element) => (element as unknown as { pause(): void }).pause())
}

/** The page's own scope, as far as these helpers use it (this file is type-checked without DOM types). */
interface SeekScope {
  seekTargets?: number[]
  document: { addEventListener(type: string, listener: (event: { target: unknown }) => void, capture: boolean): void }
}

/**
 * From now on, every seek of a media element in the page is noted with the position it goes to.
 * Read in the 'seeking' event, before any playback from there: the media plays on after a seek, so
 * a poll of currentTime taken late on a loaded machine (it once was, in Arabic) has moved past any
 * window around the line's start and can never pass.
 */
async function noteSeeks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const scope = globalThis as unknown as SeekScope
    if (scope.seekTargets) {
      scope.seekTargets.length = 0
      return
    }
    const targets: number[] = []
    scope.seekTargets = targets
    scope.document.addEventListener('seeking', (event) => targets.push((event.target as { currentTime: number }).currentTime), true)
  })
}

/** Waits until the media's last seek went to `seconds`, then pauses it. */
async function expectSeekTo(page: Page, seconds: number): Promise<void> {
  await poll(() => page.evaluate(() => (globalThis as unknown as SeekScope).seekTargets?.at(-1) ?? null)).toBeCloseTo(seconds, 2)
  await pause(page)
}

/**
 * The line lit as the one playing is the one started from, or one the media has since played into:
 * no earlier, and no later than the line after the paused position (Chromium's position while
 * playing runs a little ahead of the one it settles on when paused, and the page shows the former).
 */
async function expectLitLineFrom(page: Page, start: number): Promise<void> {
  const position = await audioTime(page)
  await poll(async () => {
    const lit = Number(await page.locator('.transcript-line[aria-current="true"]').getAttribute('data-start', { timeout: 1_000 }))
    return lit >= start && lit <= Math.max(position, start) + LINE_SECONDS ? 'lit in range' : `lit ${lit}, started ${start}, at ${position}`
  }).toBe('lit in range')
}

async function chatEngine(runtime: Runtime, model: TranslationModelDouble): Promise<void> {
  await runtime
    .operatorHandlers('desktop')
    ['settings.setAiEngine']({ engine: 'openai-compatible', baseUrl: model.url, model: 'translator' })
}

/** Scrolls the lines' own box to `line` and clicks it: the media plays from its start. */
async function playFromLine(page: Page, line: number): Promise<void> {
  const box = page.getByTestId('transcript-lines')
  await box.evaluate((element, top) => ((element as unknown as { scrollTop: number }).scrollTop = top), line * 34)
  const button = box.locator(`li[aria-posinset="${line + 1}"] button`)
  await button.waitFor()
  await noteSeeks(page)
  await button.click()
  await expectSeekTo(page, SEGMENTS[line]!.start)
  await expectLitLineFrom(page, SEGMENTS[line]!.start)
}

describe('transcripts in the jobs monitor', () => {
  for (const locale of ['en', 'ar'] as const) {
    it(`shows transcriptions and translations, their progress, subtitles and Translate (${locale}, 1024×640)`, async () => {
      const words = WORDS[locale]
      const model = await startTranslationModelDouble()
      let seeded: Seeded | undefined
      await openConsole(
        browser!,
        { label: `voicedesk-e2e-transcripts-${locale}`, locale, viewport: { width: 1024, height: 640 } },
        async (runtime) => {
          seeded = await seed(runtime)
          // Arabic starts with the chat model; English first meets the offline engine.
          if (locale === 'ar') await chatEngine(runtime, model)
        },
        async (page, runtime) => {
          const { running } = seeded!
          await goToNth(page, 3)
          const table = page.getByRole('table', { name: words.table })
          const detail = page.locator('aside.job-detail')

          // The running job's row: a compact bar, moved by job.changed.
          const runningRow = table.getByRole('row', { name: /Long lecture/ })
          await poll(() => runningRow.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('25')
          await reportProgress(runtime, running, 0.6)
          await poll(() => runningRow.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('60')
          await runningRow.click()
          const bar = detail.getByRole('progressbar')
          await poll(() => bar.getAttribute('aria-valuenow')).toBe('60')
          await reportProgress(runtime, running, 0.8)
          await poll(() => bar.getAttribute('aria-valuenow')).toBe('80')
          await shot(page, `transcripts-running-${locale}-1024`)

          // The finished transcription: languages, duration, 1,500 lines of which few are in the page.
          await table.getByRole('cell', { name: 'Town hall meeting', exact: true }).click()
          const lines = page.getByTestId('transcript-lines')
          await lines.waitFor()
          expect(await detail.getByTestId('transcript-languages').textContent()).toBe(words.english)
          expect(await detail.getByTestId('transcript-duration').textContent()).toBe(words.duration)
          expect(await lines.locator('li').first().getAttribute('aria-setsize')).toBe(String(LINES))
          expect(await lines.locator('li').count()).toBeLessThan(60)
          await playFromLine(page, 3)
          await playFromLine(page, 1_000)
          // The keyboard: a line focused, the arrow goes to the next, Enter plays from it.
          await lines.locator('li[aria-posinset="1001"] button').focus()
          await noteSeeks(page)
          await page.keyboard.press('ArrowDown')
          // The arrow moved the focus to the next line (the list renders it first), then Enter plays from there.
          await poll(() =>
            page.evaluate(
              () =>
                (
                  globalThis as unknown as {
                    document: { activeElement: { closest(selector: string): { getAttribute(name: string): string | null } | null } | null }
                  }
                ).document.activeElement
                  ?.closest('li')
                  ?.getAttribute('aria-posinset') ?? null,
            ),
          ).toBe('1002')
          await page.keyboard.press('Enter')
          await expectSeekTo(page, SEGMENTS[1_001]!.start)
          await expectLitLineFrom(page, SEGMENTS[1_001]!.start)
          await shot(page, `transcripts-transcription-${locale}-1024`)

          // Subtitles, downloaded as files named after the job.
          for (const [format, label, start] of [
            ['srt', 'SRT', '1\n00:00:00,000 --> 00:00:00,400\nLine 1 of the town hall.\n'],
            ['vtt', 'WebVTT', 'WEBVTT\n\n00:00:00.000 --> 00:00:00.400\nLine 1'],
          ] as const) {
            const [download] = await Promise.all([
              page.waitForEvent('download'),
              detail.getByRole('button', { name: label, exact: true }).click(),
            ])
            expect(download.suggestedFilename()).toBe(`Town hall meeting.${format}`)
            const text = readFileSync(await download.path(), 'utf8')
            expect(text.startsWith(start)).toBe(true)
            expect(text).toContain('Line 1500 of the town hall.')
          }

          // The seeded translation: its lines beside their source's, playing the transcription's media.
          await table.getByRole('row', { name: /Translation \(ar\)/ }).click()
          await poll(() => detail.getByTestId('transcript-languages').textContent()).toContain(words.arabic)
          const firstLine = page.getByTestId('transcript-lines').locator('li[aria-posinset="1"]')
          expect(await firstLine.locator('.line-source').textContent()).toBe('Line 1 of the town hall.')
          expect(await firstLine.locator('.line-text').textContent()).toBe('السطر 1 من الاجتماع.')
          expect(await firstLine.locator('.line-text').getAttribute('dir')).toBe('auto')
          await playFromLine(page, 200)
          await shot(page, `transcripts-translation-${locale}-1024`)

          // Translate the transcription: the language asked for is already the source's, then the other.
          await table.getByRole('cell', { name: 'Town hall meeting', exact: true }).click()
          await poll(() => detail.getByTestId('transcript-languages').textContent()).toBe(words.english)
          await detail.getByRole('button', { name: words.translate, exact: true }).click()
          const dialog = page.getByRole('dialog')
          expect(await dialog.getByRole('radio', { name: words.arabic }).isChecked()).toBe(true)
          await dialog.getByRole('radio', { name: words.english }).check()
          await dialog.getByRole('button', { name: words.make }).click()
          await poll(() => dialog.getByTestId('translate-error').textContent()).toBe(words.sameLanguage)
          await shot(page, `transcripts-translate-dialog-${locale}-1024`)
          await dialog.getByRole('radio', { name: words.arabic }).check()
          await dialog.getByRole('button', { name: words.make }).click()
          await dialog.waitFor({ state: 'hidden' })

          const heading = detail.locator('#job-detail-title')
          await poll(() => heading.textContent()).toBe('Translation (ar): Town hall meeting')
          if (locale === 'en') {
            // Offline: the new job fails, and says why in words, with its code.
            await poll(() => detail.getByTestId('job-error').textContent(), 60_000).toContain(words.notConfigured)
            expect(await detail.getByTestId('job-error').textContent()).toContain('LLM_ENGINE_NOT_CONFIGURED')
            await shot(page, `transcripts-translate-offline-${locale}-1024`)
            // A chat model chosen, Retry runs it again.
            await chatEngine(runtime, model)
            await detail.getByRole('button', { name: words.retry }).click()
          }
          await poll(() => page.getByTestId('transcript-lines').locator('li[aria-posinset="1"] .line-text').textContent(), 90_000).toBe(
            '[ar] Line 1 of the town hall.',
          )
          expect(await page.getByTestId('transcript-lines').locator('li[aria-posinset="1"] .line-source').textContent()).toBe(
            'Line 1 of the town hall.',
          )
          expect(model.requests.every((request) => request.to === 'ar')).toBe(true)
          await shot(page, `transcripts-translated-${locale}-1024`)

          // Every word of ours is Arabic in Arabic; the shell never moved.
          if (locale === 'ar') expect(await latinUiText(page)).toEqual([])
          expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)
        },
      )
      await model.close()
    }, 300_000)
  }
})
