// A new operator's walk through the console, in Chromium against the service: the screens the
// other files do not open with data in them (a job's detail with a failed webhook, a FAILED job,
// the webhook journal's detail, the dialogs) and every form refused, in Arabic with no English
// of ours left (validation messages, webhook errors, units, job errors); the keyboard alone
// (Escape closes dialogs and gives the focus back); lists that say so when the service is gone.
import { createSocket } from 'node:dgram'
import { createServer } from 'node:net'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { translate, type MessageKey } from '../../src/renderer/src/i18n/dictionary'
import { createTextToSpeechJob } from '../../src/service/ops/jobs'
import { addPhoneNumber, assignPhoneNumber } from '../../src/service/ops/phone-numbers'
import { createVoiceAgent } from '../../src/service/ops/voice-agents'
import { createRuntime, type Runtime } from '../../src/service/runtime'
import { seedJob } from '../helpers/seed-jobs'
import { ROOT } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { STEP_MS, activeElementLabel, collectProblems, goToNth, latinUiText, launchChromium, openConsole, poll, shot } from './page-helpers'

let browser: Browser | undefined
let runtime: Runtime | undefined
let appUrl = ''

/** A loopback port nobody listens on: webhooks sent there are refused (ECONNREFUSED). */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

beforeAll(async () => {
  browser = await launchChromium()
  runtime = await createRuntime({
    dataDir: makeTempDir('voicedesk-e2e-walk'),
    port: 0,
    rendererDir: join(ROOT, 'out', 'renderer'),
    allowWebhookHosts: ['127.0.0.1'],
    // A SIP line on a free port: the number below shows its address on it.
    sip: { port: 0 },
  })
  const caller = {
    projectId: runtime.bootstrap.projectId,
    apiKeyId: (await runtime.store.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id,
    userId: runtime.bootstrap.userId,
  }
  const agent = await createVoiceAgent(runtime.context, caller, { agentName: 'Walk agent' })
  await addPhoneNumber(runtime.context, caller, {
    type: 'TELEPHONY',
    phoneNumber: '+14155550142',
    label: 'Walk line',
    providerAccountSid: 'AC1',
    providerAuthToken: 'none',
  })
  await assignPhoneNumber(runtime.context, caller, { voiceAgentId: agent.id, phoneNumber: '+14155550142' })
  await seedJob(runtime, { status: 'FAILED', errorCode: 'TTS_ENGINE_FAILED', errorMessage: 'espeak-ng exited with code 1' })
  await createTextToSpeechJob(runtime.context, caller, {
    voiceId: 'fe68337a-10d3-4648-99bb-2bb04554b6cf',
    text: 'Hello from the walk.',
    webhookUrl: `http://127.0.0.1:${await closedPort()}/hook`,
  })
  const url = await runtime.start()
  appUrl = `${url}/app/#token=${runtime.uiToken}`
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await runtime?.stop()
})

const ar = (key: MessageKey) => translate('ar', key)

async function arabicPage(width = 1024, height = 640) {
  const context = await browser!.newContext({ viewport: { width, height }, locale: 'ar' })
  const page = await context.newPage()
  page.setDefaultTimeout(STEP_MS)
  await page.addInitScript(() =>
    (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('voicedesk.locale', 'ar'),
  )
  return { context, page }
}

/** Records the Latin-script UI text in view now, under `where`. */
async function check(page: Page, offenders: Record<string, string[]>, where: string): Promise<void> {
  await page.waitForTimeout(250)
  const latin = await latinUiText(page)
  if (latin.length > 0) offenders[where] = latin
  await shot(page, `walk-ar-${where}`)
}

describe('the walk in Arabic', () => {
  it('leaves no English on screens with data, in refused forms, dialogs and error texts', async () => {
    const { context, page } = await arabicPage()
    const problems = collectProblems(page)
    const offenders: Record<string, string[]> = {}
    try {
      await page.goto(appUrl)
      // The agent editor, refused by the service: empty name, a bad webhook URL, a bad shape.
      await page.getByRole('button', { name: /^Walk agent/ }).click()
      await page.locator('.editor').waitFor()
      const editor = page.locator('.editor')
      await editor.getByLabel(ar('agent.name'), { exact: true }).fill('')
      await editor.getByLabel(ar('agent.webhookUrl'), { exact: true }).fill('ftp://example.com/x')
      await editor.getByRole('button', { name: ar('agent.addParam') }).click()
      await editor.getByLabel(translate('ar', 'agent.paramName', { n: 1 })).fill('1bad')
      await page.keyboard.press('Control+s')
      await editor.locator('.field-error').first().waitFor()
      // The first field in error has the focus, scrolled into view.
      await poll(() =>
        editor
          .getByLabel(ar('agent.name'), { exact: true })
          .evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement),
      ).toBe(true)
      await check(page, offenders, 'agent-refused')
      expect(await editor.locator('.field-error').allTextContents()).toEqual(
        expect.arrayContaining([ar('errors.required'), ar('errors.url')]),
      )
      await editor.getByRole('button', { name: ar('common.revert') }).click()
      // An outcome shape the UI refuses by itself, before sending.
      const shape = editor.getByLabel(ar('agent.shape'), { exact: true })
      await shape.fill('{ "type": "text" }')
      await editor.locator('.shape-status.bad').waitFor()
      await page.keyboard.press('Control+s')
      await poll(() =>
        shape.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement),
      ).toBe(true)
      await check(page, offenders, 'agent-shape-refused')
      await shape.fill('{ "type": ')
      await check(page, offenders, 'agent-shape-not-json')
      await editor.getByRole('button', { name: ar('common.revert') }).click()

      // Numbers: the add form with a number that is not E.164.
      await goToNth(page, 2)
      // The number's SIP address reads left to right, with its copy button named in Arabic.
      await page.getByTestId('sip-address').waitFor()
      expect(await page.getByTestId('sip-address').getAttribute('dir')).toBe('ltr')
      await page
        .getByRole('button', {
          name: translate('ar', 'copy.label', { what: translate('ar', 'sip.addressOf', { number: '+14155550142' }) }),
        })
        .waitFor()
      await check(page, offenders, 'numbers-sip')
      await page.getByLabel(ar('numbers.phoneNumber'), { exact: true }).fill('0044 20')
      await check(page, offenders, 'numbers-invalid')
      // Refused by the service (no label, no account): the focus lands on the first field in error.
      await page.getByLabel(ar('numbers.phoneNumber'), { exact: true }).fill('+4412')
      await page.getByLabel(ar('numbers.label'), { exact: true }).fill('x')
      await page.getByLabel(ar('numbers.accountSid'), { exact: true }).fill('AC1')
      await page.getByLabel(ar('numbers.authToken'), { exact: true }).fill('token')
      await page.getByLabel(ar('numbers.authToken'), { exact: true }).press('Enter')
      await page.locator('.field-error', { hasText: '+4412' }).waitFor()
      await poll(() =>
        page
          .getByLabel(ar('numbers.phoneNumber'), { exact: true })
          .evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement),
      ).toBe(true)
      await check(page, offenders, 'numbers-refused')

      // Jobs: the TTS job whose webhook was refused, then the FAILED job.
      await goToNth(page, 3)
      await page.locator('.jobs-row').first().waitFor()
      await page.locator('.jobs-row', { hasText: /Hello from the walk/ }).click()
      await page.getByTestId('job-detail-status').waitFor()
      await page.getByTestId('job-deliveries').waitFor({ timeout: 45_000 })
      await check(page, offenders, 'job-tts-detail')
      await page
        .locator('.jobs-row', { hasText: ar('status.FAILED') })
        .first()
        .click()
      await page.getByTestId('job-error').getByText(ar('jobError.TTS_ENGINE_FAILED')).waitFor()
      await check(page, offenders, 'job-failed-detail')
      // The new TTS job dialog, refused (webhooks are not sent to a cloud metadata address).
      await page.getByRole('button', { name: ar('jobs.newTts') }).click()
      const dialog = page.getByRole('dialog')
      await dialog.waitFor()
      await dialog.getByLabel(ar('jobs.text'), { exact: true }).fill('مرحبا')
      await dialog.getByLabel(ar('jobs.webhookOptional'), { exact: true }).fill('http://169.254.169.254/latest')
      await dialog.getByRole('button', { name: ar('jobs.createTts') }).click()
      await dialog.locator('.field-error').waitFor()
      await check(page, offenders, 'tts-dialog-refused')
      expect(
        await dialog
          .getByLabel(ar('jobs.webhookOptional'), { exact: true })
          .evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement),
      ).toBe(true)
      await page.keyboard.press('Escape')
      await poll(() => dialog.isVisible()).toBe(false)

      // Webhooks: the journal and the refused delivery's detail.
      await goToNth(page, 4)
      await page.locator('.table tbody tr').first().waitFor()
      await check(page, offenders, 'webhooks-list')
      await page.locator('.table tbody tr button').first().click()
      await page.locator('.attempts li').getByText(ar('webhookError.ECONNREFUSED')).first().waitFor()
      await check(page, offenders, 'webhooks-detail')

      // Settings: the AI engine's server form refused, CORS refused, a key with a blank name.
      await goToNth(page, 5)
      await page.locator('.table-wrap .table tbody tr').first().waitFor()
      // The keys VoiceDesk named itself are named in Arabic.
      await page.getByRole('cell', { name: ar('keys.defaultKeyName'), exact: true }).waitFor()
      await check(page, offenders, 'settings')
      await page.getByTestId('sip-line-card').scrollIntoViewIfNeeded()
      await page.getByTestId('sip-state').getByText(ar('sip.stateListening')).waitFor()
      await check(page, offenders, 'settings-sip')
      const cors = page.getByLabel(ar('settings.corsOrigins'), { exact: true })
      await cors.fill('https://ok.example\nftp://files.example/x')
      await page.getByRole('button', { name: ar('settings.saveCors') }).click()
      await page.locator('.field-error', { hasText: ar('errors.corsOrigin').slice(0, 12) }).waitFor()
      await poll(() =>
        cors.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement),
      ).toBe(true)
      await cors.scrollIntoViewIfNeeded()
      await check(page, offenders, 'settings-cors-refused')
      expect(offenders).toEqual({})
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 240_000)
})

describe('the walk with the service gone', () => {
  it('says so on every screen, with Retry, never "Loading…" for ever; a failed action says why once, with a count', async () => {
    const gone = await createRuntime({
      dataDir: makeTempDir('voicedesk-e2e-walk-gone'),
      port: 0,
      rendererDir: join(ROOT, 'out', 'renderer'),
    })
    const caller = {
      projectId: gone.bootstrap.projectId,
      apiKeyId: (await gone.store.accounts.listKeys(gone.bootstrap.projectId))[0]!.id,
      userId: gone.bootstrap.userId,
    }
    await createVoiceAgent(gone.context, caller, { agentName: 'Gone agent' })
    const url = await gone.start()
    const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    try {
      await page.goto(`${url}/app/#token=${gone.uiToken}`)
      await page.getByRole('button', { name: /^Gone agent/ }).waitFor()
      await gone.stop()
      await poll(() => page.getByTestId('link-state').getAttribute('data-state'), 20_000).toMatch(/reconnecting|lost/)
      const main = page.locator('main')
      // Agents last: the list loaded before the service went stays on screen until the screen is opened again.
      for (const [index, screen] of [
        [1, 'templates'],
        [2, 'numbers'],
        [3, 'jobs'],
        [4, 'webhooks'],
        [5, 'settings'],
        [6, 'requests'],
        [7, 'faults'],
        [0, 'agents'],
      ] as const) {
        await goToNth(page, index)
        await main.getByTestId('load-error').first().waitFor()
        await main.getByRole('button', { name: 'Retry' }).first().waitFor()
        await poll(() => main.getByText('Loading…').count(), 10_000).toBe(0)
        await shot(page, `walk-gone-${screen}`)
        // On Settings, the keys, the service's settings, the SIP line, its users and the snapshots each say so (the keys' Name field stays clean).
        if (screen === 'settings') {
          expect(await main.getByTestId('load-error').count()).toBe(5)
          expect(await main.locator('.field-error').count()).toBe(0)
        }
      }
      await goToNth(page, 5)
      // A job's or a delivery's detail opened by its link: said in the pane, with Retry.
      const goToHash = (hash: string) =>
        page.evaluate((to) => ((globalThis as unknown as { location: { hash: string } }).location.hash = to), hash)
      await goToHash('#/jobs/0b7c4a57-0000-4000-8000-000000000000')
      await page.locator('.detail-pane').getByTestId('load-error').getByText('This job could not be loaded.').waitFor()
      await goToHash('#/webhooks/msg_gone')
      await page.locator('.detail-pane').getByTestId('load-error').getByText('This delivery could not be loaded.').waitFor()
      expect(await page.locator('.detail-pane').getByText('Loading…').count()).toBe(0)
      await shot(page, 'walk-gone-delivery-detail')
      await goToNth(page, 5)
      // A refused action says why in words: beside the form here.
      await page.getByLabel('Name', { exact: true }).fill('Made offline')
      await page.getByRole('button', { name: 'Create key' }).click()
      await main.locator('.field-error', { hasText: 'The VoiceDesk service cannot be reached.' }).waitFor()
      // Saving an agent twice: one toast in words with a count, not a stack of the same.
      await goToNth(page, 0)
      await page.getByRole('button', { name: /^Gone agent/ }).click()
      // The voice is named from the fixed catalogue, not shown as its id.
      expect(await page.getByLabel('Voice', { exact: true }).locator('option:checked').textContent()).toMatch(/^Ava/)
      await page.getByLabel('Agent name', { exact: true }).fill('Gone agent, renamed')
      await page.keyboard.press('Control+s')
      // The save says it was not saved (the link's own toast says the service cannot be reached).
      await page.locator('.toast', { hasText: 'Not saved: the VoiceDesk service cannot be reached.' }).waitFor()
      await page.keyboard.press('Control+s')
      const toast = page.locator('.toast', { hasText: 'Not saved: the VoiceDesk service cannot be reached.' })
      await toast.getByTestId('toast-count').waitFor()
      expect(await toast.count()).toBe(1)
      await shot(page, 'walk-gone-toast')
    } finally {
      await context.close()
    }
  }, 180_000)
})

/** The focused element: its label, whether a focus ring shows (outline or box-shadow), whether it is in view. */
function focusState(page: Page) {
  return page.evaluate(() => {
    type El = {
      tagName: string
      textContent: string | null
      getAttribute(n: string): string | null
      getBoundingClientRect(): { top: number; bottom: number; left: number; right: number; width: number }
    }
    const g = globalThis as unknown as {
      innerWidth: number
      innerHeight: number
      document: { activeElement: El | null; body: El }
      getComputedStyle(element: El): { outlineStyle: string; outlineWidth: string; boxShadow: string }
    }
    const element = g.document.activeElement
    if (!element || element === g.document.body) return null
    const style = g.getComputedStyle(element)
    const box = element.getBoundingClientRect()
    return {
      label: `${element.tagName.toLowerCase()} ${element.getAttribute('type') ?? ''} ${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40)}`,
      ring: (style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none',
      inView: box.bottom > 0 && box.top < g.innerHeight && box.right > 0 && box.left < g.innerWidth,
    }
  })
}

describe('the walk in Arabic with the service gone', () => {
  it('says it all in Arabic: the link, the lists, a failed save', async () => {
    const gone = await createRuntime({
      dataDir: makeTempDir('voicedesk-e2e-walk-gone-ar'),
      port: 0,
      rendererDir: join(ROOT, 'out', 'renderer'),
    })
    const caller = {
      projectId: gone.bootstrap.projectId,
      apiKeyId: (await gone.store.accounts.listKeys(gone.bootstrap.projectId))[0]!.id,
      userId: gone.bootstrap.userId,
    }
    await createVoiceAgent(gone.context, caller, { agentName: 'Gone agent' })
    const url = await gone.start()
    const { context, page } = await arabicPage()
    const offenders: Record<string, string[]> = {}
    try {
      await page.goto(`${url}/app/#token=${gone.uiToken}`)
      await page.getByRole('button', { name: /^Gone agent/ }).click()
      await gone.stop()
      await poll(() => page.getByTestId('link-state').getAttribute('data-state'), 20_000).toMatch(/reconnecting|lost/)
      await page.getByLabel(ar('agent.name'), { exact: true }).fill('Gone agent, renamed')
      await page.keyboard.press('Control+s')
      await page.locator('.toast', { hasText: ar('agent.saveUnreachable') }).waitFor()
      await check(page, offenders, 'gone-agent-save')
      for (const [index, screen] of [
        [1, 'templates'],
        [2, 'numbers'],
        [3, 'jobs'],
        [4, 'webhooks'],
        [5, 'settings'],
      ] as const) {
        await goToNth(page, index)
        await page
          .getByRole('dialog')
          .getByRole('button', { name: ar('draft.discard') })
          .click({ timeout: 2_000 })
          .catch(() => {})
        await page.locator('main').getByTestId('load-error').first().waitFor()
        await check(page, offenders, `gone-${screen}`)
      }
      await page.evaluate(() => ((globalThis as unknown as { location: { hash: string } }).location.hash = '#/webhooks/msg_gone'))
      await page.locator('.detail-pane').getByText(ar('webhooks.detailFailed')).waitFor()
      await check(page, offenders, 'gone-delivery-detail')
      expect(offenders).toEqual({})
    } finally {
      await context.close()
    }
  }, 180_000)
})

describe('the walk with the keyboard only', () => {
  it('shows where the focus is at every Tab, and Escape closes dialogs and gives the focus back', async () => {
    const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    try {
      await page.goto(appUrl)
      await page.getByRole('button', { name: /^Walk agent/ }).waitFor()
      const unseen: string[] = []
      for (const [index] of ['agents', 'templates', 'numbers', 'jobs', 'webhooks', 'settings'].entries()) {
        await goToNth(page, index)
        await page.waitForTimeout(300)
        await page
          .locator('main')
          .focus()
          .catch(() => {})
        for (let step = 0; step < 30; step += 1) {
          await page.keyboard.press('Tab')
          const state = await focusState(page)
          if (state && (!state.ring || !state.inView)) unseen.push(`${index}: ${state.label} ring=${state.ring} inView=${state.inView}`)
        }
      }
      expect(unseen).toEqual([])

      // Escape closes a dialog and gives the focus back to the button that opened it.
      await goToNth(page, 3)
      const newTts = page.getByRole('button', { name: 'Text to speech' })
      await newTts.focus()
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog')
      await dialog.waitFor()
      // Tab never reaches the page behind (the native modal makes it inert; past the last button
      // the focus may leave for the browser's own controls, and comes back into the dialog).
      for (let step = 0; step < 12; step += 1) {
        await page.keyboard.press('Tab')
        const where = await dialog.evaluate((element) => {
          const active = (globalThis as unknown as { document: { activeElement: unknown; body: unknown } }).document
          return active.activeElement === active.body ? 'browser' : element.contains(active.activeElement) ? 'dialog' : 'page'
        })
        expect(where).not.toBe('page')
      }
      await page.keyboard.press('Escape')
      await poll(() => dialog.count()).toBe(0)
      expect(await activeElementLabel(page)).toBe(
        await newTts.evaluate((element) => `${element.tagName}#${element.id}:${element.getAttribute('aria-label') ?? ''}`),
      )
      await goToNth(page, 1)
      const clone = page.getByRole('button', { name: /^Clone / }).first()
      await clone.focus()
      await page.keyboard.press('Enter')
      await dialog.waitFor()
      await page.keyboard.press('Escape')
      await poll(() => dialog.count()).toBe(0)
      expect(
        await clone.evaluate(
          (element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
        ),
      ).toBe(true)
    } finally {
      await context.close()
    }
  }, 180_000)
})

/** Scroll offsets of the window and the shell (all must stay 0), and of every pane in view. */
function scrollState(page: Page) {
  return page.evaluate(() => {
    type Scroller = { scrollTop: number; scrollLeft: number; scrollHeight: number; clientHeight: number; className: string }
    const g = globalThis as unknown as {
      document: { scrollingElement: Scroller; querySelector(s: string): Scroller | null; querySelectorAll(s: string): Scroller[] }
    }
    const of = (element: Scroller | null) => (element ? [element.scrollTop, element.scrollLeft] : [0, 0])
    return {
      shell: {
        document: of(g.document.scrollingElement),
        app: of(g.document.querySelector('.app')),
        content: of(g.document.querySelector('.content')),
        root: of(g.document.querySelector('#root')),
      },
      panes: [...g.document.querySelectorAll('.detail-pane, .list-pane, .page, .jobs-scroll, .table-wrap')].map((pane) => ({
        pane: pane.className,
        overflows: pane.scrollHeight > pane.clientHeight + 1,
        top: pane.scrollTop,
      })),
    }
  })
}

describe('the walk at both ends of the screen sizes', () => {
  for (const [width, height] of [
    [1024, 640],
    [2560, 1440],
  ] as const) {
    it(`scrolls each pane inside itself, never the shell, with details open (Arabic, ${width}×${height})`, async () => {
      const { context, page } = await arabicPage(width, height)
      try {
        await page.goto(appUrl)
        const still = { document: [0, 0], app: [0, 0], content: [0, 0], root: [0, 0] }
        const wheelEverywhere = async (where: string) => {
          for (const selector of ['.sidebar', '.list-pane', '.detail-pane', '.page', '.jobs-scroll', '.table-wrap', '.status-bar']) {
            for (const pane of await page.locator(selector).all()) {
              const box = await pane.boundingBox()
              if (!box || box.width < 4 || box.height < 4) continue
              await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200))
              await page.mouse.wheel(0, 3_000)
              await page.mouse.wheel(3_000, 0)
            }
          }
          await page.waitForTimeout(150)
          const state = await scrollState(page)
          expect(state.shell, where).toEqual(still)
          // A pane with more than fits has scrolled inside itself.
          for (const pane of state.panes) if (pane.overflows) expect(pane.top, `${where}: ${pane.pane}`).toBeGreaterThan(0)
          await shot(page, `walk-wheel-${width}-${where}`)
        }
        await page.getByRole('button', { name: /^Walk agent/ }).click()
        await page.locator('.editor').waitFor()
        await wheelEverywhere('agent')
        await goToNth(page, 3)
        await page.locator('.jobs-row', { hasText: /Hello from the walk/ }).click()
        await page.getByTestId('job-deliveries').waitFor()
        await wheelEverywhere('job')
        await goToNth(page, 4)
        await page.locator('.table tbody tr button').first().click()
        await page.locator('.attempts li').first().waitFor()
        await wheelEverywhere('delivery')
      } finally {
        await context.close()
      }
    }, 180_000)
  }
})

describe('the walk with the SIP line held by another program', () => {
  it('says on Phone numbers, in Settings and in Call my softphone that the line is not open, and why', async () => {
    const holder = createSocket('udp4')
    await new Promise<void>((resolve) => holder.bind(0, '127.0.0.1', resolve))
    const taken = holder.address().port
    try {
      await openConsole(
        browser!,
        { label: 'voicedesk-e2e-sip-taken', viewport: { width: 1024, height: 640 }, sip: { port: taken } },
        async (service) => {
          const caller = {
            projectId: service.bootstrap.projectId,
            apiKeyId: (await service.store.accounts.listKeys(service.bootstrap.projectId))[0]!.id,
            userId: service.bootstrap.userId,
          }
          const agent = await createVoiceAgent(service.context, caller, { agentName: 'Taken line agent' })
          await addPhoneNumber(service.context, caller, {
            type: 'TELEPHONY',
            phoneNumber: '+14155550143',
            label: 'Taken line',
            providerAccountSid: 'AC1',
            providerAuthToken: 'none',
          })
          await assignPhoneNumber(service.context, caller, { voiceAgentId: agent.id, phoneNumber: '+14155550143' })
        },
        async (page) => {
          const problem = `port ${taken} on 127.0.0.1 (UDP or TCP) is already in use`
          await goToNth(page, 2)
          await page.getByTestId('sip-line-notice').getByText('The SIP line could not open, so no number rings.').waitFor()
          expect(await page.getByTestId('sip-line-problem').textContent()).toContain(problem)
          await page.getByText('No address: the SIP line is not open').waitFor()
          expect(await page.getByTestId('sip-address').count()).toBe(0)
          await shot(page, 'walk-sip-taken-numbers')
          await goToNth(page, 5)
          const card = page.getByTestId('sip-line-card')
          await poll(() => card.getByTestId('sip-state').textContent()).toBe('Could not open')
          expect(await card.getByTestId('sip-line-problem').textContent()).toContain(problem)
          await card.scrollIntoViewIfNeeded()
          await shot(page, 'walk-sip-taken-settings')
          await goToNth(page, 0)
          await page.getByRole('button', { name: /Taken line agent/ }).click()
          await page.getByTestId('agent-tab-test').click()
          await page.getByTestId('softphone-blocker').getByText('The SIP line is not open').waitFor()
          await page.getByTestId('softphone-blocker').getByRole('button', { name: 'Open SIP settings' }).click()
          await page.getByTestId('sip-line-card').waitFor()
        },
      )
    } finally {
      holder.close()
    }
  }, 120_000)
})
