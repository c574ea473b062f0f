// The Requests screen in Debian's chromium against a real runtime on 127.0.0.1: /v1 requests
// made with fetch (a real client, a real key) appear live; filters; a request opened, its
// secrets redacted; "Copy as curl" read back from the clipboard and run by a shell against the
// service; "Export HAR" downloaded and parsed; new rows held behind a bar while scrolled down;
// older pages by the cursor under the mouse wheel; keyboard; Arabic at 1024×640; a dead
// service; the journal turned off.
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { createRuntime, type Runtime, type RuntimeConfig } from '../../src/service/runtime'
import { VOICES } from '../../src/shared/voices'
import { ROOT } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { SHELL_AT_REST, STEP_MS, collectProblems, goToNth, latinUiText, launchChromium, poll, shellOffsets, shot } from './page-helpers'

const run = promisify(execFile)
const KEY = 'vd_requests_e2e_0123456789abcdefghij'
const TOKEN_SECRET = 'provider-token-9f8e7d6c5b4a'
const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id
/** The Requests entry of the sidebar (after Settings). */
const REQUESTS_NAV = 6

let browser: Browser | undefined
beforeAll(async () => {
  browser = await launchChromium()
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

async function startService(label: string, config: Partial<RuntimeConfig> = {}) {
  const runtime = await createRuntime({
    dataDir: makeTempDir(label),
    port: 0,
    rendererDir: join(ROOT, 'out', 'renderer'),
    fixedApiKey: KEY,
    ...config,
  })
  const url = await runtime.start()
  /** A /v1 request as any client sends it. */
  const v1 = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Token ${KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, json: (await response.json()) as { data?: { id?: string; jobId?: string } } }
  }
  return { runtime, url, v1 }
}

async function openPage(
  url: string,
  runtime: Runtime,
  options: { locale?: 'en' | 'ar'; viewport?: { width: number; height: number } } = {},
) {
  const locale = options.locale ?? 'en'
  const context = await browser!.newContext({
    viewport: options.viewport ?? { width: 1360, height: 860 },
    locale: locale === 'ar' ? 'ar' : 'en-US',
    acceptDownloads: true,
  })
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url })
  const page = await context.newPage()
  page.setDefaultTimeout(STEP_MS)
  if (locale === 'ar') {
    await page.addInitScript(() =>
      (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('voicedesk.locale', 'ar'),
    )
  }
  await page.goto(`${url}/app/#token=${runtime.uiToken}`)
  await poll(() => page.getByTestId('link-state').getAttribute('data-state')).toBe('connected')
  return { context, page }
}

const rows = (page: Page) => page.locator('.requests-scroll .requests-row[data-request-id]')
/** The row of a path (the newest when several). */
const rowOf = (page: Page, path: string) => rows(page).filter({ hasText: path }).first()

/** The largest row index rendered (the list is virtualised: only rows in view are in the DOM). */
const lastRenderedIndex = (page: Page) =>
  page
    .locator('.requests-scroll .requests-row[data-request-id]')
    .evaluateAll((elements) => Math.max(-1, ...elements.map((element) => Number(element.getAttribute('data-index')))))

const scrollTopOf = (page: Page) => page.locator('.requests-scroll').evaluate((element) => element.scrollTop)

describe('the Requests screen', () => {
  it('shows /v1 requests live, filters them, opens one redacted, copies it as curl that runs, exports HAR, and holds new rows while scrolled', async () => {
    const { runtime, url, v1 } = await startService('voicedesk-e2e-requests')
    const { context, page } = await openPage(url, runtime)
    const problems = collectProblems(page)
    try {
      await goToNth(page, REQUESTS_NAV)
      await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor()
      await page.getByText('No requests yet.').waitFor()

      // Real requests, made while the screen is open: they appear without a reload.
      const agent = await v1('POST', '/v1/voice-agents', { agentName: 'Journal front desk' })
      expect(agent.status).toBe(200)
      const number = await v1('POST', '/v1/voice-agents/phone-number', {
        type: 'TELEPHONY',
        phoneNumber: '+14155550199',
        label: 'Front line',
        providerAccountSid: 'AC1',
        providerAuthToken: TOKEN_SECRET,
      })
      expect(number.status).toBe(200)
      const tts = await v1('POST', '/v1/jobs/text-to-speech', { voiceId: AVA, text: 'Hello from the journal.' })
      expect(tts.status).toBe(200)
      const jobId = tts.json.data!.jobId ?? tts.json.data!.id!
      expect((await v1('GET', '/v1/jobs?jobId=00000000-0000-4000-8000-000000000000')).status).toBe(404)
      await poll(() => rows(page).count()).toBe(4)
      expect(await rows(page).first().textContent()).toContain('/v1/jobs')
      expect(await rows(page).first().textContent()).toContain('404')

      // Filters: status class, method, path prefix; then cleared.
      await page.getByRole('combobox', { name: 'Status' }).selectOption('4xx')
      await poll(() => rows(page).count()).toBe(1)
      await page.getByRole('combobox', { name: 'Status' }).selectOption('')
      await page.getByRole('combobox', { name: 'Method' }).selectOption('POST')
      await poll(() => rows(page).count()).toBe(3)
      await page.getByRole('searchbox', { name: 'Path starts with' }).fill('v1/voice-agents')
      await poll(() => rows(page).count()).toBe(2)
      await shot(page, 'requests-filtered')
      await page.getByRole('button', { name: 'Clear filters' }).click()
      await poll(() => rows(page).count()).toBe(4)

      // The phone number's request: its provider token redacted, nowhere in the page, nor the key.
      await rowOf(page, '/v1/voice-agents/phone-number').click()
      const detail = page.locator('.request-detail')
      await detail.getByTestId('request-side').waitFor()
      const requestBody = await detail.getByTestId('request-side').locator('pre').textContent()
      expect(requestBody).toContain('"providerAuthToken": "[REDACTED]"')
      // Pretty-printed: one field a line.
      expect(requestBody).toContain('\n  "label": "Front line"')
      await detail
        .getByTestId('request-side')
        .getByText(/Headers \(\d+\)/)
        .click()
      await detail
        .getByTestId('request-side')
        .getByRole('row', { name: /authorization/i })
        .waitFor()
      expect(
        await detail
          .getByTestId('request-side')
          .getByRole('row', { name: /authorization/i })
          .textContent(),
      ).toContain('[REDACTED]')
      const html = await page.content()
      expect(html).not.toContain(KEY)
      expect(html).not.toContain(TOKEN_SECRET)
      await shot(page, 'requests-detail-redacted')

      // The TTS request: the job it made is a link to the jobs monitor, and Back comes here again.
      await rowOf(page, '/v1/jobs/text-to-speech').click()
      await detail.getByRole('button', { name: `Open ${jobId} in the jobs monitor` }).click()
      await page.getByTestId('job-detail-status').waitFor()
      expect(page.url()).toContain(`#/jobs/${jobId}`)
      await page.goBack()
      await page.getByRole('heading', { name: 'Requests', level: 1 }).waitFor()
      await detail.getByTestId('curl-command').waitFor()

      // Copy as curl: the clipboard holds the command shown; a shell runs it against the service.
      await detail.getByRole('button', { name: 'Copy this request as a curl command' }).click()
      await page.getByText('curl command copied.').waitFor()
      const copied = await page.evaluate(() =>
        (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
      )
      expect(copied).toBe(await detail.getByTestId('curl-command').textContent())
      expect(copied).not.toContain(KEY)
      const { stdout } = await run('sh', ['-c', `${copied} -w '\\n%{http_code}'`], { env: { ...process.env, VOICEDESK_KEY: KEY } })
      expect(Number(stdout.slice(stdout.lastIndexOf('\n') + 1))).toBe(200)
      const replayed = JSON.parse(stdout.slice(0, stdout.lastIndexOf('\n'))) as { data: { jobId: string } }
      expect(replayed.data.jobId).not.toBe(jobId)
      // The replay is a request like any other: it appears at the top, live.
      await poll(() => rows(page).count()).toBe(5)
      expect(await rows(page).first().textContent()).toContain('/v1/jobs/text-to-speech')
      await shot(page, 'requests-curl-copied')

      // Export HAR of the current filters: the downloaded file parses and has those entries.
      await page.getByRole('combobox', { name: 'Method' }).selectOption('POST')
      await poll(() => rows(page).count()).toBe(4)
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export the requests of these filters as a HAR file' }).click(),
      ])
      expect(download.suggestedFilename()).toMatch(/^voicedesk-requests-.*\.har$/)
      const harText = readFileSync(await download.path(), 'utf8')
      const har = JSON.parse(harText) as { log: { version: string; entries: { request: { method: string; url: string } }[] } }
      expect(har.log.version).toBe('1.2')
      expect(har.log.entries.map((entry) => `${entry.request.method} ${new URL(entry.request.url).pathname}`)).toEqual([
        'POST /v1/voice-agents',
        'POST /v1/voice-agents/phone-number',
        'POST /v1/jobs/text-to-speech',
        'POST /v1/jobs/text-to-speech',
      ])
      expect(harText).not.toContain(KEY)
      expect(harText).not.toContain(TOKEN_SECRET)
      await page.getByRole('button', { name: 'Clear filters' }).click()
      await poll(() => rows(page).count()).toBe(5)
      await detail.getByRole('button', { name: 'Close the request' }).click()

      // Many requests: older pages come by the cursor as the wheel scrolls the list.
      for (let batch = 0; batch < 6; batch += 1) await Promise.all(Array.from({ length: 40 }, () => v1('GET', '/v1/voices?lang=en')))
      const total = 5 + 240
      await poll(() => rows(page).first().getAttribute('data-request-id')).toBe(String(total))
      const list = page.locator('.requests-scroll')
      const box = (await list.boundingBox())!
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
      await poll(async () => {
        await page.mouse.wheel(0, 4_000)
        return lastRenderedIndex(page)
      }).toBe(total - 1)
      expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)

      // Scrolled to the middle, new requests wait behind the bar: the rows in view do not move.
      await list.evaluate((element) => (element.scrollTop = 3_000))
      await poll(() => scrollTopOf(page)).toBe(3_000)
      await page.waitForTimeout(300)
      const inView = await rows(page).first().getAttribute('data-request-id')
      await v1('GET', '/v1/voice-agents/templates')
      await v1('GET', '/v1/voice-agents/templates')
      await page.getByTestId('new-requests').getByText('2 new requests: show them').waitFor()
      expect(await rows(page).first().getAttribute('data-request-id')).toBe(inView)
      expect(await scrollTopOf(page)).toBe(3_000)
      await shot(page, 'requests-new-bar')
      await page.getByTestId('new-requests').click()
      await poll(() => rows(page).first().getAttribute('data-request-id')).toBe(String(total + 2))
      await poll(() => scrollTopOf(page)).toBe(0)

      // The keyboard: arrows move between rows (focus visible), Enter opens one.
      await rows(page).first().focus()
      await page.keyboard.press('ArrowDown')
      await page.keyboard.press('ArrowDown')
      const focused = page.locator('.requests-row:focus')
      expect(await focused.getAttribute('data-index')).toBe('2')
      const outline = await focused.evaluate(
        (element) =>
          (globalThis as unknown as { getComputedStyle(target: unknown): { outlineStyle: string } }).getComputedStyle(element).outlineStyle,
      )
      expect(outline).not.toBe('none')
      const focusedId = await focused.getAttribute('data-request-id')
      await page.keyboard.press('Enter')
      await detail.getByTestId('response-side').waitFor()
      expect(page.url()).toContain(`#/requests/${focusedId}`)
      await shot(page, 'requests-keyboard')
      expect(problems).toEqual([])
    } finally {
      await context.close()
      await runtime.stop()
    }
  }, 240_000)

  it('shows a WebSocket session with its frame counts and close code, and no curl command', async () => {
    const { runtime, url } = await startService('voicedesk-e2e-requests-ws')
    const { context, page } = await openPage(url, runtime)
    const problems = collectProblems(page)
    try {
      await goToNth(page, REQUESTS_NAV)
      await page.getByText('No requests yet.').waitFor()
      // The realtime socket with the key in its query (as browsers must send it), two frames, a normal close.
      const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/v1/realtime/ws?api_key=${KEY}`)
      await new Promise<void>((resolve, reject) => (socket.once('open', () => resolve()), socket.once('error', reject)))
      const answers: string[] = []
      socket.on('message', (data: Buffer) => answers.push(data.toString('utf8')))
      socket.send('not json')
      socket.send('nor this')
      await poll(() => answers.length).toBe(2)
      socket.close(1000)
      await new Promise((resolve) => socket.once('close', resolve))

      await poll(() => rows(page).count()).toBe(1)
      await rowOf(page, '/v1/realtime/ws').click()
      const facts = page.getByTestId('socket-facts')
      await facts.waitFor()
      const text = (await facts.textContent())!.replace(/\s+/g, ' ')
      expect(text).toContain('Frames received2')
      expect(text).toContain('Frames sent2')
      expect(text).toContain('Close code1000')
      await page.getByText('A WebSocket session cannot be sent again with curl').waitFor()
      expect(await page.locator('.request-detail').textContent()).toContain('api_key=%5BREDACTED%5D')
      expect(await page.content()).not.toContain(KEY)
      await shot(page, 'requests-websocket')
      expect(problems).toEqual([])
    } finally {
      await context.close()
      await runtime.stop()
    }
  }, 120_000)

  it('reads right to left in Arabic at 1024×640 without the shell scrolling, the wheel scrolling the list alone', async () => {
    const { runtime, url, v1 } = await startService('voicedesk-e2e-requests-ar')
    for (let index = 0; index < 60; index += 1) await v1('GET', '/v1/voices')
    await v1('POST', '/v1/voice-agents', { agentName: 'مكتب الاستقبال' })
    const { context, page } = await openPage(url, runtime, { locale: 'ar', viewport: { width: 1024, height: 640 } })
    const problems = collectProblems(page)
    try {
      expect(await page.evaluate(() => (globalThis as unknown as { document: { dir: string } }).document.dir)).toBe('rtl')
      await goToNth(page, REQUESTS_NAV)
      await page.getByRole('heading', { name: 'الطلبات', level: 1 }).waitFor()
      await poll(() => rows(page).count()).toBeGreaterThan(5)
      await rows(page).first().click()
      await page.locator('.request-detail').getByTestId('response-side').waitFor()
      const list = page.locator('.requests-scroll')
      const box = (await list.boundingBox())!
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
      await page.mouse.wheel(0, 2_000)
      await poll(() => scrollTopOf(page)).toBeGreaterThan(0)
      const detailBox = (await page.locator('.request-detail').boundingBox())!
      await page.mouse.move(detailBox.x + detailBox.width / 2, detailBox.y + detailBox.height / 2)
      await page.mouse.wheel(0, 4_000)
      await page.mouse.wheel(-4_000, 0)
      expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)
      // Right to left: the detail pane is on the left, the list on the right.
      expect(detailBox.x).toBeLessThan(box.x)
      expect(await latinUiText(page)).toEqual([])
      await shot(page, 'requests-ar-1024')
      expect(problems).toEqual([])
    } finally {
      await context.close()
      await runtime.stop()
    }
  }, 120_000)

  it('says so calmly when the service is gone, and when the journal is off', async () => {
    const { runtime, url, v1 } = await startService('voicedesk-e2e-requests-gone')
    await v1('GET', '/v1/voices')
    const { context, page } = await openPage(url, runtime)
    // Requests to a dead service are expected here.
    const problems = collectProblems(page, [/Failed to load resource/, /ERR_CONNECTION_REFUSED/, /EventSource/])
    try {
      await goToNth(page, REQUESTS_NAV)
      await poll(() => rows(page).count()).toBe(1)
      await runtime.stop()
      await poll(() => page.getByTestId('link-state').getAttribute('data-state'), 20_000).toMatch(/reconnecting|lost/)
      // A filter asked for now fails in words, with Retry; the screen stays whole.
      await page.getByRole('combobox', { name: 'Status' }).selectOption('2xx')
      const loadError = page.getByTestId('load-error')
      await loadError.waitFor()
      expect(await loadError.textContent()).toContain('The service cannot be reached')
      await loadError.getByRole('button', { name: 'Retry' }).click()
      await loadError.waitFor()
      expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)
      await shot(page, 'requests-service-gone')
      expect(problems).toEqual([])
    } finally {
      await context.close()
      await runtime.stop()
    }

    const off = await startService('voicedesk-e2e-requests-off', { journal: { enabled: false } })
    const opened = await openPage(off.url, off.runtime)
    const offProblems = collectProblems(opened.page)
    try {
      await off.v1('GET', '/v1/voices')
      await goToNth(opened.page, REQUESTS_NAV)
      const calm = opened.page.getByTestId('journal-off')
      await calm.waitFor()
      expect((await calm.textContent())?.replace(/\s+/g, ' ')).toContain('The request journal is off: start with --journal on')
      expect(await opened.page.getByTestId('load-error').count()).toBe(0)
      await shot(opened.page, 'requests-journal-off')
      expect(offProblems).toEqual([])
    } finally {
      await opened.context.close()
      await off.runtime.stop()
    }
  }, 120_000)
})
