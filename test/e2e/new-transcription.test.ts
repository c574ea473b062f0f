// "New transcription" in the jobs monitor, in Chromium at 1024×640 (English and Arabic): the
// dialog opened from the keyboard, a file chosen (a real WAV of eSpeak speech), its upload
// through the one-use link, and the new job opened in the monitor, where it completes with its
// lines; a submit with no file is said in words; a URL makes a job too. The speech recognition
// server is a loopback double (helpers/speech-server-double.ts) standing for whisper.cpp's
// server, outside this machine: it answers what it measured ("heard N s").
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { invokeOperation } from '../../src/service/operator/invoke-operation'
import { STT_SETTING_KEY } from '../../src/service/settings/stt-settings'
import { speechWav } from '../helpers/speech-media'
import { startSpeechServerDouble, type SpeechServerDouble } from '../helpers/speech-server-double'
import { SHELL_AT_REST, goToNth, latinUiText, launchChromium, openConsole, poll, shellOffsets, shot } from './page-helpers'

let browser: Browser | undefined
beforeAll(async () => {
  browser = await launchChromium()
}, 90_000)
afterAll(async () => {
  await browser?.close()
})

const WORDS = {
  en: {
    table: 'Jobs',
    open: 'New transcription',
    file: 'Audio or video file',
    language: 'Spoken language',
    url: 'Media at a URL',
    mediaUrl: 'Media URL',
    title: 'Title (optional)',
    start: 'Transcribe',
    chooseFirst: 'Choose a file first.',
    uploading: 'Uploading',
    stop: 'Stop the upload',
    stopped: 'The upload was stopped; nothing was kept.',
  },
  ar: {
    table: 'المهام',
    open: 'تفريغ نصي جديد',
    file: 'ملف صوت أو فيديو',
    language: 'لغة الكلام',
    url: 'وسائط على رابط',
    mediaUrl: 'رابط الوسائط',
    title: 'العنوان (اختياري)',
    start: 'ابدأ التفريغ',
    chooseFirst: 'اختر ملفًا أولًا.',
    uploading: 'جارٍ الرفع',
    stop: 'أوقف الرفع',
    stopped: 'أُوقف الرفع ولم يُحفظ شيء.',
  },
} as const

describe('New transcription in the jobs monitor', () => {
  for (const locale of ['en', 'ar'] as const) {
    it(`uploads a chosen WAV, opens the new job and shows its lines when done (${locale}, 1024×640)`, { timeout: 120_000 }, async () => {
      const words = WORDS[locale]
      const { wav, seconds } = await speechWav(['Good morning, this is the weekly call.', 0.4])
      let speech: SpeechServerDouble | undefined
      await openConsole(
        browser!,
        { label: `voicedesk-e2e-new-transcription-${locale}`, locale, viewport: { width: 1024, height: 640 } },
        async (runtime) => {
          speech = await startSpeechServerDouble()
          await runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: speech.url, model: 'whisper-1' })
        },
        async (page, runtime) => {
          await goToNth(page, 3)
          await page.getByRole('table', { name: words.table }).waitFor()

          // From the keyboard: the button focused, Enter opens the dialog.
          await page.getByRole('button', { name: words.open, exact: true }).focus()
          await page.keyboard.press('Enter')
          const dialog = page.getByRole('dialog', { name: words.open })
          await dialog.waitFor()
          // No file yet: said in words, nothing made.
          await dialog.getByRole('button', { name: words.start, exact: true }).click()
          await poll(() => dialog.getByRole('alert').textContent()).toBe(words.chooseFirst)
          if (locale === 'ar') expect((await latinUiText(page)).filter((text) => !/^(No file chosen|Choose File)$/.test(text))).toEqual([])
          expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)
          await shot(page, `new-transcription-dialog-${locale}-1024`)

          await dialog.getByLabel(words.file).setInputFiles({ name: 'weekly-call.wav', mimeType: 'audio/wav', buffer: wav })
          await dialog.getByLabel(words.language).selectOption('en')

          // Stopped: the upload is held unanswered (so its bar shows), stopping it is said, and no job is made.
          await page.route('**/_voicedesk/links/transcribe/**', () => {})
          await dialog.getByRole('button', { name: words.start, exact: true }).click()
          await dialog.getByRole('progressbar', { name: words.uploading }).waitFor()
          await dialog.getByRole('button', { name: words.stop, exact: true }).click()
          await poll(() => dialog.getByRole('alert').textContent()).toBe(words.stopped)
          expect(await dialog.getByRole('progressbar').count()).toBe(0)
          await page.unrouteAll({ behavior: 'ignoreErrors' })
          const none = await invokeOperation(runtime.operatorHandlers('browser'), 'jobs.list', {})
          expect(none.ok && (none.data as { total: number }).total).toBe(0)

          // Again, through: a fresh link each try.
          await dialog.getByRole('button', { name: words.start, exact: true }).click()
          await dialog.waitFor({ state: 'hidden' })

          // The new job is open in the monitor, and completes with the server's line.
          const detail = page.locator('aside.job-detail')
          await poll(() => detail.getByRole('heading', { name: 'weekly-call' }).count()).toBe(1)
          const lines = detail.getByTestId('transcript-lines')
          await lines.waitFor({ timeout: 60_000 })
          await poll(() => lines.locator('li').first().textContent()).toContain(`heard ${seconds.toFixed(2)} s`)
          // The language chosen in the dialog reached the speech server (how many requests it took is the windows' business).
          expect(speech!.requests.length).toBeGreaterThan(0)
          expect(new Set(speech!.requests.map((request) => request.language))).toEqual(new Set(['en']))
          const listed = await invokeOperation(runtime.operatorHandlers('browser'), 'jobs.list', {})
          const [job] = listed.ok ? (listed.data as { jobs: { id: string; type: string; status: string; title: string }[] }).jobs : []
          expect(job).toMatchObject({ type: 'TRANSCRIPTION', status: 'COMPLETED', title: 'weekly-call' })
          await shot(page, `new-transcription-done-${locale}-1024`)

          // A URL: the job is made and opened (this service's own media URL, so nothing leaves the machine).
          const mediaUrl = (await runtime.operatorHandlers('browser')['jobs.get']({ id: job!.id })).playableMediaUrl!
          await page.getByRole('button', { name: words.open, exact: true }).click()
          await dialog.getByRole('radio', { name: words.url }).check()
          await dialog.getByLabel(words.mediaUrl).fill(mediaUrl)
          await dialog.getByLabel(words.title).fill('Again, from its URL')
          await dialog.getByRole('button', { name: words.start, exact: true }).click()
          await dialog.waitFor({ state: 'hidden' })
          await poll(() => detail.getByRole('heading', { name: 'Again, from its URL' }).count()).toBe(1)
          expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)
        },
      )
      await speech?.close()
    })
  }
})
