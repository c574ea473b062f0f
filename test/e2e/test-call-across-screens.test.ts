// A test call outlives the agent screen, and an unsaved agent draft outlives a restart of the
// service, in Chromium against a real service (in this process) on loopback. The call is typed
// (no microphone); the dialogue is the offline engine; nothing outside the machine is faked.
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { translate, type MessageKey } from '../../src/renderer/src/i18n/dictionary'
import { createVoiceAgent } from '../../src/service/ops/voice-agents'
import { createRuntime, type Runtime } from '../../src/service/runtime'
import { ROOT } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { STEP_MS, collectProblems, goToNth, latinUiText, launchChromium, poll, shot } from './page-helpers'

let browser: Browser | undefined

beforeAll(async () => {
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
})

const ar = (key: MessageKey) => translate('ar', key)

/** A runtime on this folder; `port` 0 picks one, a number reuses it (a restart: the same origin, a new UI token). */
async function startRuntime(dataDir: string, port = 0): Promise<{ runtime: Runtime; url: string }> {
  const runtime = await createRuntime({ dataDir, port, rendererDir: join(ROOT, 'out', 'renderer') })
  return { runtime, url: await runtime.start() }
}

async function addAgent(runtime: Runtime, body: Parameters<typeof createVoiceAgent>[2]): Promise<string> {
  const caller = {
    projectId: runtime.bootstrap.projectId,
    apiKeyId: (await runtime.store.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id,
    userId: runtime.bootstrap.userId,
  }
  return (await createVoiceAgent(runtime.context, caller, body)).id
}

/** The conversation as the service has it now (jobs.get through the operator bridge). */
async function conversation(url: string, runtime: Runtime, jobId: string) {
  const response = await fetch(`${url}/ipc/jobs.get`, {
    method: 'POST',
    headers: { authorization: `Bearer ${runtime.uiToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ id: jobId }),
  })
  const answer = (await response.json()) as {
    ok: true
    data: { job: { status: string; jobResponse: { endReason?: string; transcript?: { role: string; content: string }[] } | null } }
  }
  return answer.data.job
}

const transcriptTexts = (page: Page) => page.getByTestId('test-call-transcript').locator('[data-role]').allTextContents()

/** Types a caller turn in the panel and waits for the agent's answer after it. */
async function sayTyped(page: Page, text: string): Promise<void> {
  await page.getByTestId('test-call-input').fill(text)
  await page.getByTestId('test-call-input').press('Enter')
  await poll(async () => {
    const turns = await page
      .getByTestId('test-call-transcript')
      .locator('[data-role]')
      .evaluateAll((items) => items.map((item) => [item.getAttribute('data-role'), item.textContent ?? '']))
    const typed = turns.findIndex(([role, content]) => role === 'caller' && content.includes(text))
    return typed >= 0 && turns.slice(typed + 1).some(([role]) => role === 'agent')
  }).toBe(true)
}

/** Opens the agent by its deep link, on its Test call tab, and starts a typed call; answers once the greeting is in. */
async function startTypedCall(page: Page, agentId: string, greeting: string): Promise<void> {
  await page.evaluate((id) => ((globalThis as unknown as { location: { hash: string } }).location.hash = `#/agents/${id}`), agentId)
  await page.getByTestId('agent-tab-test').click()
  await page.getByTestId('test-call-type').click()
  await poll(async () => (await transcriptTexts(page)).some((text) => text.includes(greeting))).toBe(true)
}

describe('a test call across screens', () => {
  it('stays live on Jobs, another screen and the monitor, with a bar (English at 1024×640, Arabic narrow) that hangs it up', async () => {
    const dataDir = makeTempDir('voicedesk-e2e-call-across')
    const { runtime, url } = await startRuntime(dataDir)
    const agentId = await addAgent(runtime, { agentName: 'Harbour desk', lang: 'en', greetingMessage: 'Harbour desk, good morning.' })
    const otherAgentId = await addAgent(runtime, { agentName: 'Ferry line', lang: 'en', greetingMessage: 'Ferry line, hello.' })
    const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    const problems = collectProblems(page)
    try {
      await page.goto(`${url}/app/#token=${runtime.uiToken}`)
      await page.locator('.item-list').waitFor()
      await startTypedCall(page, agentId, 'Harbour desk, good morning.')
      // No bar while the call's own panel is in view.
      expect(await page.getByTestId('call-bar').count()).toBe(0)
      const jobId = (await page.getByTestId('test-call-monitor').getAttribute('href'))!.replace('#/jobs/', '')

      // Jobs, then Templates: the bar stays, named, timed, listening; the call is live at the service.
      await goToNth(page, 3)
      const bar = page.getByRole('region', { name: 'Test call in progress' })
      await bar.waitFor()
      await expect(bar.getByTestId('call-bar-agent').textContent()).resolves.toBe('Harbour desk')
      await poll(() => bar.getByTestId('call-bar-activity').getAttribute('data-activity')).toBe('listening')
      await poll(() => bar.getByRole('timer').textContent()).toMatch(/^0:(0[1-9]|[1-5]\d)$/)
      await goToNth(page, 1)
      await bar.waitFor()
      await shot(page, 'call-bar-1024x640-templates')
      expect((await conversation(url, runtime, jobId)).status).toBe('IN_PROGRESS')

      // One call at a time: another agent's panel says which call runs and starts none.
      await page.evaluate(
        (id) => ((globalThis as unknown as { location: { hash: string } }).location.hash = `#/agents/${id}`),
        otherAgentId,
      )
      await page.getByTestId('agent-tab-test').click()
      await page.getByTestId('test-call-other-running').getByText('A test call with Harbour desk is running').waitFor()
      await expect(page.getByTestId('test-call-type').getAttribute('aria-disabled')).resolves.toBe('true')
      // Pressed anyway (aria-disabled keeps it focusable): nothing starts.
      await page.getByTestId('test-call-type').focus()
      await page.keyboard.press('Enter')
      await page.waitForTimeout(300)
      expect(await page.getByTestId('test-call-transcript').count()).toBe(0)
      await bar.waitFor()

      // Back to the call from the bar (by keyboard): the whole panel, the transcript as it was; the agent answers.
      await bar.getByRole('button', { name: 'Back to the call' }).focus()
      await page.keyboard.press('Enter')
      await page.getByTestId('test-call-transcript').waitFor()
      expect(await page.getByTestId('call-bar').count()).toBe(0)
      expect((await transcriptTexts(page)).some((text) => text.includes('Harbour desk, good morning.'))).toBe(true)
      await sayTyped(page, 'I would like to book a berth for Friday')

      // The panel's own "Open in the monitor" keeps the call too.
      await page.getByTestId('test-call-monitor').click()
      await page.getByTestId('job-detail-status').waitFor()
      await bar.waitFor()
      await poll(() => bar.getByTestId('call-bar-activity').getAttribute('data-activity')).toBe('listening')
      expect((await conversation(url, runtime, jobId)).status).toBe('IN_PROGRESS')
      await shot(page, 'call-bar-1024x640-monitor')

      // In Arabic, in a narrow window: the bar says it all in Arabic and fits.
      await page.getByRole('button', { name: /^العربية:/ }).click()
      await page.setViewportSize({ width: 760, height: 640 })
      const arabicBar = page.getByRole('region', { name: ar('callBar.label') })
      await arabicBar.waitFor()
      await page.waitForTimeout(250)
      expect(await latinUiText(page)).toEqual([])
      const box = (await arabicBar.boundingBox())!
      expect(box.x).toBeGreaterThanOrEqual(0)
      expect(box.x + box.width).toBeLessThanOrEqual(760)
      await shot(page, 'call-bar-arabic-760x640-monitor')

      // Hang up from the bar: the bar goes, a toast says how it ended, the service has it as the hang-up.
      // A double click hangs up once: one toast, no count on it.
      await arabicBar.getByRole('button', { name: ar('callBar.hangUp') }).dblclick()
      const toast = page.locator('.toast', {
        hasText: translate('ar', 'callBar.ended', { name: 'Harbour desk', reason: ar('testCall.youHungUp') }),
      })
      await toast.waitFor()
      expect(await page.getByTestId('call-bar').count()).toBe(0)
      expect(await toast.getByTestId('toast-count').count()).toBe(0)
      const ended = await conversation(url, runtime, jobId)
      expect(ended.status).toBe('COMPLETED')
      expect(ended.jobResponse?.endReason).toBe('caller-hangup')
      expect(ended.jobResponse?.transcript?.some((turn) => turn.role === 'caller' && turn.content.includes('berth for Friday'))).toBe(true)

      // The agent again: its panel shows the ended call, said as the operator's hang-up.
      await goToNth(page, 0)
      const end = page.getByTestId('test-call-ended')
      await poll(() => end.getAttribute('data-end-reason')).toBe('caller-hangup')
      await expect(end.getAttribute('data-hung-up-by')).resolves.toBe('operator')
      await expect(end.textContent()).resolves.toContain(ar('testCall.youHungUp'))
      expect(problems).toEqual([])
    } finally {
      await context.close()
      await runtime.stop()
    }
  }, 180_000)
})

describe('an unsaved agent draft across a restart of the service', () => {
  it('is offered back (in Arabic, in a narrow window) once the new link is opened; Restore brings the edit back', async () => {
    const dataDir = makeTempDir('voicedesk-e2e-call-draft-ar')
    let { runtime, url } = await startRuntime(dataDir)
    const agentId = await addAgent(runtime, { agentName: 'مكتب الميناء', lang: 'ar', greetingMessage: 'مكتب الميناء، صباح الخير.' })
    const context = await browser!.newContext({ viewport: { width: 760, height: 640 }, locale: 'ar' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    // The restart refuses the old token and the old link's requests fail while the service is down: expected here.
    const problems = collectProblems(page, [/401|Unauthorized|Failed to load resource|ERR_CONNECTION_REFUSED/])
    try {
      await page.addInitScript(() =>
        (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('voicedesk.locale', 'ar'),
      )
      await page.goto(`${url}/app/#token=${runtime.uiToken}`)
      await page.locator('.item-list').waitFor()
      // An edit not saved, then the service restarts (a new UI token) on the same address.
      await page.evaluate((id) => ((globalThis as unknown as { location: { hash: string } }).location.hash = `#/agents/${id}`), agentId)
      const greeting = page.getByLabel(ar('agent.greeting'), { exact: true })
      await greeting.fill('مكتب الميناء، مساء الخير. كيف أساعدك؟')
      await page.getByTestId('unsaved-mark').waitFor()
      const port = Number(new URL(url).port)
      await runtime.stop()
      ;({ runtime, url } = await startRuntime(dataDir, port))
      // The page learns its token is refused and asks for the new link.
      await page.getByRole('heading', { name: ar('token.invalidTitle') }).waitFor({ timeout: 40_000 })
      // The new link in the same tab: only the hash changes, and the page loads again with it.
      await page.goto(`${url}/app/#token=${runtime.uiToken}`)
      await page.locator('.item-list').waitFor()

      // Back on the agent: the draft is offered, in Arabic; Restore brings the edit back, still unsaved.
      await page.evaluate((id) => ((globalThis as unknown as { location: { hash: string } }).location.hash = `#/agents/${id}`), agentId)
      const offer = page.getByTestId('draft-offer')
      await offer.getByText(translate('ar', 'draft.restoreTitle', { name: 'مكتب الميناء' })).waitFor()
      await page.waitForTimeout(250)
      expect(await latinUiText(page)).toEqual([])
      await shot(page, 'draft-offer-arabic-760x640')
      await offer.getByRole('button', { name: ar('draft.restore') }).click()
      await expect(page.getByLabel(ar('agent.greeting'), { exact: true }).inputValue()).resolves.toBe(
        'مكتب الميناء، مساء الخير. كيف أساعدك؟',
      )
      await page.getByTestId('unsaved-mark').waitFor()

      // Saved: nothing is offered on the next load.
      await page.keyboard.press('Control+s')
      await poll(() => page.getByTestId('unsaved-mark').count()).toBe(0)
      await page.reload()
      await page.getByTestId('agent-tab-settings').waitFor()
      await expect(page.getByLabel(ar('agent.greeting'), { exact: true }).inputValue()).resolves.toBe(
        'مكتب الميناء، مساء الخير. كيف أساعدك؟',
      )
      expect(await page.getByTestId('draft-offer').count()).toBe(0)
      expect(problems).toEqual([])
    } finally {
      await context.close()
      await runtime.stop()
    }
  }, 180_000)
})
