// Speech recognition chosen in the settings screen, in Chromium against the service's /app/,
// in English and in Arabic: checked in the page first (messages in the operator's language, the
// focus on the field to fix), saved with a write-only key, kept across a reload, turned off
// again; by keyboard; right to left in Arabic; no English left on the Arabic screen.
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRuntime } from '../../src/service/runtime'
import { readSttSetting } from '../../src/service/settings/stt-settings'
import { ROOT } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { STEP_MS, activeElementLabel, collectProblems, goToNth, latinUiText, launchChromium, poll, shot } from './page-helpers'

let browser: Browser | undefined

beforeAll(async () => {
  browser = await launchChromium()
}, 90_000)

afterAll(async () => {
  await browser?.close()
})

const KEY = 'sk-stt-e2e-0123456789'

const WORDS = {
  en: {
    settings: 'Settings',
    legend: 'Speech recognition',
    off: 'Off',
    server: 'OpenAI-compatible server',
    baseUrl: 'Base URL',
    model: 'Model (optional)',
    apiKey: 'API key (optional)',
    save: 'Save speech recognition',
    saved: 'Speech recognition saved; it counts from the next call.',
    badUrl: 'Enter a URL that starts with http:// or https://.',
    noUrl: 'Enter the server’s base URL.',
    keyKept: 'A key is stored; leave empty to keep it.',
    help: /calls hear that the caller speaks but not what they say.*whisper\.cpp’s server, speaches or LocalAI/,
  },
  ar: {
    settings: 'الإعدادات',
    legend: 'التعرّف على الكلام',
    off: 'معطّل',
    server: 'خادم متوافق مع OpenAI',
    baseUrl: 'الرابط الأساسي',
    model: 'النموذج (اختياري)',
    apiKey: 'مفتاح الواجهة (اختياري)',
    save: 'حفظ التعرّف على الكلام',
    saved: 'حُفظ التعرّف على الكلام، ويسري من المكالمة التالية.',
    badUrl: 'أدخل رابطًا يبدأ بـ «\u2066http://\u2069» أو «\u2066https://\u2069».',
    noUrl: 'أدخل الرابط الأساسي للخادم.',
    keyKept: 'يوجد مفتاح محفوظ؛ اتركه فارغًا للإبقاء عليه.',
    help: /تسمع المكالمات أن المتصل يتكلم، لا ما يقوله.*«\u2066whisper\.cpp\u2069» أو «\u2066speaches\u2069» أو «\u2066LocalAI\u2069»/,
  },
} as const

describe.each(['en', 'ar'] as const)('speech recognition in the settings screen (%s)', (locale) => {
  const words = WORDS[locale]

  it('is set to a server with a write-only key, kept across a reload, and turned off again', async () => {
    const runtime = await createRuntime({
      dataDir: makeTempDir(`voicedesk-e2e-stt-${locale}`),
      port: 0,
      rendererDir: join(ROOT, 'out', 'renderer'),
    })
    const appUrl = `${await runtime.start()}/app/#token=${runtime.uiToken}`
    const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: locale === 'ar' ? 'ar' : 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    const problems = collectProblems(page)
    const form = page.getByRole('form', { name: words.legend })
    const radio = (name: string) => form.getByRole('radio', { name, exact: true })
    const field = (label: string) => form.getByLabel(label, { exact: true })
    const openSettings = async () => {
      await goToNth(page, 5)
      await page.getByRole('heading', { name: words.settings, level: 1 }).waitFor()
      // The stored choice is shown once the settings are read (the button waits for them).
      await poll(() => form.getByRole('button', { name: words.save }).isEnabled()).toBe(true)
      await form.scrollIntoViewIfNeeded()
    }
    try {
      await page.addInitScript(
        (value) =>
          (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
            'voicedesk.locale',
            value,
          ),
        locale,
      )
      await page.goto(appUrl)
      await openSettings()
      expect(await page.evaluate(() => (globalThis as unknown as { document: { dir: string } }).document.dir)).toBe(
        locale === 'ar' ? 'rtl' : 'ltr',
      )
      expect(await radio(words.off).isChecked()).toBe(true)
      await form.getByText(words.help).waitFor()
      expect(await field(words.baseUrl).count()).toBe(0)

      // By keyboard: the arrow moves to the server choice, Tab reaches the base URL, Enter saves.
      await radio(words.off).focus()
      await page.keyboard.press('ArrowDown')
      expect(await radio(words.server).isChecked()).toBe(true)
      await page.keyboard.press('Tab')
      expect(await activeElementLabel(page)).toBe(
        await field(words.baseUrl).evaluate((element) => `INPUT#${(element as unknown as { id: string }).id}:`),
      )
      await page.keyboard.press('Enter')
      await form.getByText(words.noUrl).waitFor()
      await page.keyboard.type('ftp://files.example')
      await page.keyboard.press('Enter')
      await form.getByText(words.badUrl).waitFor()
      // The refusal was caught in the page: nothing was saved, and the focus is on the field to fix.
      expect(await readSttSetting(runtime.store)).toEqual({ engine: 'off' })
      expect(await field(words.baseUrl).getAttribute('aria-invalid')).toBe('true')
      await poll(() =>
        field(words.baseUrl).evaluate(
          (element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
        ),
      ).toBe(true)
      if (locale === 'ar') {
        // Right to left: each radio stands to the right of its words.
        const dot = (await radio(words.server).boundingBox())!
        const text = (await form.getByText(words.server, { exact: true }).boundingBox())!
        expect(dot.x).toBeGreaterThan(text.x)
        expect(await latinUiText(page)).toEqual([])
      }
      await shot(page, `settings-stt-refused-${locale}`)

      await field(words.baseUrl).fill('http://127.0.0.1:8080/v1')
      expect(await field(words.model).getAttribute('placeholder')).toBe(locale === 'ar' ? 'الافتراضي في الخادم' : 'server default')
      await field(words.model).fill('whisper-large-v3')
      await field(words.apiKey).fill(KEY)
      await field(words.apiKey).press('Enter')
      await page.getByText(words.saved).waitFor()
      expect(await field(words.apiKey).inputValue()).toBe('')
      const stored = await readSttSetting(runtime.store)
      expect(stored).toMatchObject({ engine: 'openai-compatible', baseUrl: 'http://127.0.0.1:8080/v1', model: 'whisper-large-v3' })
      expect(stored.engine === 'openai-compatible' && runtime.context.secrets.decrypt(stored.apiKeySealed!)).toBe(KEY)

      // Kept across a reload; the key is not in the page, only that one is stored.
      await page.reload()
      await openSettings()
      expect(await radio(words.server).isChecked()).toBe(true)
      expect(await field(words.baseUrl).inputValue()).toBe('http://127.0.0.1:8080/v1')
      expect(await field(words.model).inputValue()).toBe('whisper-large-v3')
      expect(await field(words.apiKey).inputValue()).toBe('')
      await form.getByText(words.keyKept).waitFor()
      expect(await page.content()).not.toContain(KEY)
      await shot(page, `settings-stt-server-${locale}`)

      // Turned off again: saved, and still off after a reload.
      await radio(words.off).check()
      await form.getByRole('button', { name: words.save }).click()
      await page.getByText(words.saved).first().waitFor()
      await poll(() => readSttSetting(runtime.store)).toEqual({ engine: 'off' })
      await page.reload()
      await openSettings()
      expect(await radio(words.off).isChecked()).toBe(true)
      expect(await field(words.baseUrl).count()).toBe(0)
      await shot(page, `settings-stt-off-${locale}`)
      expect(problems).toEqual([])
    } finally {
      await context.close()
      await runtime.stop()
    }
  }, 180_000)
})
