// The monitor's date filter and the settings' "Test connection", in Chromium against the
// service's /app/, in English and in Arabic. The dates are the operator's local days (the page
// runs in Riyadh, UTC+3, so a local day is not a UTC day); a "to" before the "from" is said in
// words and not sent. "Test connection" reaches a loopback double of an OpenAI-compatible
// server: it stands for a model server outside this machine.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Runtime } from '../../src/service/runtime'
import { seedJob } from '../helpers/seed-jobs'
import { goToNth, latinUiText, launchChromium, poll, shot, openConsole } from './page-helpers'

let browser: Browser | undefined
beforeAll(async () => {
  browser = await launchChromium()
}, 90_000)
afterAll(async () => {
  await browser?.close()
})

const doubles: Server[] = []
afterEach(async () => {
  for (const server of doubles.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

/** A loopback double of a chat-model server's GET /models (it stands for a server outside the machine). */
async function startModelServerDouble(models: string[]): Promise<string> {
  const server = createServer((request, response) => {
    response.writeHead(request.url === '/v1/models' ? 200 : 404, { 'content-type': 'application/json' })
    response.end(JSON.stringify({ object: 'list', data: models.map((id) => ({ id, object: 'model' })) }))
  })
  doubles.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
}

function withConsole(
  label: string,
  locale: 'en' | 'ar',
  prepare: (runtime: Runtime) => Promise<void>,
  run: (page: Page, runtime: Runtime) => Promise<void>,
) {
  return openConsole(browser!, { label, locale, viewport: { width: 1024, height: 640 }, timezoneId: 'Asia/Riyadh' }, prepare, run)
}

const WORDS = {
  en: {
    from: 'From',
    to: 'To',
    counts: (filtered: number, total: number) => `${filtered} of ${total}`,
    backwards: 'The “to” date is before the “from” date: choose a later one.',
    server: 'OpenAI-compatible API',
    baseUrl: 'Base URL',
    model: 'Model',
    test: 'Test connection',
    reachable: /^Connected: the server lists the model llama3\.2\. \(\d+ ms\)$/,
    missing: /^The server answered, but it does not have the model mistral\. It has: llama3\.2, qwen2\.5\. \(\d+ ms\)$/,
    refused: /^Connection refused: nothing listens at this address\. Is the server running\? \(\d+ ms\)$/,
  },
  ar: {
    from: 'من',
    to: 'إلى',
    counts: (filtered: number, total: number) => `${filtered.toLocaleString('ar')} من ${total.toLocaleString('ar')}`,
    backwards: 'تاريخ «إلى» يسبق تاريخ «من»: اختر تاريخًا لاحقًا.',
    server: 'واجهة متوافقة مع OpenAI',
    baseUrl: 'الرابط الأساسي',
    model: 'النموذج',
    test: 'اختبار الاتصال',
    reachable: /^متصل: الخادم يوفّر النموذج «\u2066llama3\.2\u2069»\. \([\d٠-٩]+ م\.ث\)$/,
    missing: /^أجاب الخادم، لكنه لا يوفّر النموذج «\u2066mistral\u2069»\. يوفّر: «\u2066llama3\.2, qwen2\.5\u2069»\. \([\d٠-٩]+ م\.ث\)$/,
    refused: /^رُفض الاتصال: لا شيء يستمع على هذا العنوان\. هل الخادم يعمل؟ \([\d٠-٩]+ م\.ث\)$/,
  },
} as const

describe.each(['en', 'ar'] as const)('the jobs monitor by dates, and Test connection (%s)', (locale) => {
  const words = WORDS[locale]

  it('lists the jobs created on local days from … to, and says so when "to" comes before "from"', async () => {
    // Riyadh is UTC+3: 10 March there runs from 9 March 21:00 to 10 March 21:00 UTC.
    const created = {
      'Before the day': '2025-03-09T20:59:59.000Z',
      'Early on the tenth': '2025-03-09T21:00:00.000Z',
      'Late on the tenth': '2025-03-10T20:59:59.000Z',
      'On the eleventh': '2025-03-10T21:00:00.000Z',
    }
    await withConsole(
      `voicedesk-e2e-dates-${locale}`,
      locale,
      async (runtime) => {
        for (const [title, at] of Object.entries(created)) await seedJob(runtime, { title, createdAt: at, updatedAt: at })
      },
      async (page) => {
        await goToNth(page, 3)
        const table = page.locator('.jobs-table')
        const counts = page.locator('.filters .counts')
        await poll(() => counts.textContent()).toBe(words.counts(4, 4))
        const from = page.getByLabel(words.from, { exact: true })
        const to = page.getByLabel(words.to, { exact: true })
        await from.fill('2025-03-10')
        await to.fill('2025-03-10')
        await poll(() => counts.textContent()).toBe(words.counts(2, 4))
        expect(await table.getByRole('row').allTextContents()).toEqual(
          expect.arrayContaining([expect.stringMatching(/Late on the tenth/), expect.stringMatching(/Early on the tenth/)]),
        )
        expect(await table.getByRole('row', { name: /Before the day|On the eleventh/ }).count()).toBe(0)
        await shot(page, `jobs-date-filter-${locale}`)

        // From the eleventh: one job; then a "to" before it, said and not sent.
        await from.fill('2025-03-11')
        await to.fill('')
        await poll(() => counts.textContent()).toBe(words.counts(1, 4))
        await to.fill('2025-03-09')
        await page.getByRole('alert').filter({ hasText: words.backwards }).waitFor()
        expect(await to.getAttribute('aria-invalid')).toBe('true')
        expect(await counts.textContent()).toBe(words.counts(1, 4))
        await shot(page, `jobs-date-filter-backwards-${locale}`)
        if (locale === 'ar') expect(await latinUiText(page)).toEqual([])
        await to.fill('')
        await poll(() => page.getByRole('alert').filter({ hasText: words.backwards }).count()).toBe(0)
      },
    )
  }, 180_000)

  it("tests the AI engine's server from the form's unsaved values, with the answer beside the button", async () => {
    const baseUrl = await startModelServerDouble(['llama3.2', 'qwen2.5'])
    await withConsole(
      `voicedesk-e2e-test-engine-${locale}`,
      locale,
      async () => {},
      async (page) => {
        await goToNth(page, 5)
        const form = page.locator('form').filter({ has: page.getByText(words.server, { exact: true }) })
        await form.getByText(words.server, { exact: true }).click()
        await form.getByLabel(words.baseUrl, { exact: true }).fill(baseUrl)
        await form.getByLabel(words.model, { exact: true }).fill('llama3.2')
        const test = form.getByRole('button', { name: words.test })
        const result = form.locator('.engine-test')
        await test.focus()
        await page.keyboard.press('Enter')
        await poll(() => result.textContent()).toMatch(words.reachable)
        expect(await result.getAttribute('class')).toMatch(/\bok\b/)
        await result.scrollIntoViewIfNeeded()
        await shot(page, `settings-test-connection-${locale}`)

        await form.getByLabel(words.model, { exact: true }).fill('mistral')
        // A changed form hides the result that was for the old values.
        await poll(() => result.textContent()).toBe('')
        await test.click()
        await poll(() => result.textContent()).toMatch(words.missing)
        expect(await result.getAttribute('class')).toMatch(/\bbad\b/)

        // The server stopped: connection refused.
        for (const server of doubles.splice(0)) {
          server.closeAllConnections()
          await new Promise((resolve) => server.close(resolve))
        }
        await test.click()
        await poll(() => result.textContent()).toMatch(words.refused)
        if (locale === 'ar') expect(await latinUiText(page)).toEqual([])
        await shot(page, `settings-test-connection-refused-${locale}`)
      },
    )
  }, 180_000)
})
