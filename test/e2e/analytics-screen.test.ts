// The Analytics screen in Chromium against the service, at 1024×640: real conversations in the
// data (written through the store, as calls leave them, and one made through conversation-init),
// the figures and charts for the project and for one agent, the CSV export, in English and in
// Arabic (right to left: no English of ours, no page scroll); in English also by keyboard alone,
// scrolled by the wheel, and with the service gone and back. Screenshots in test-artifacts.
import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { translate, type MessageKey, type UiLocale } from '../../src/renderer/src/i18n/dictionary'
import type { OutcomeShape } from '../../src/shared/api/outcome-shape'
import { createVoiceAgent } from '../../src/service/ops/voice-agents'
import type { Runtime } from '../../src/service/runtime'
import { jobRecord } from '../helpers/job-record'
import {
  SHELL_AT_REST,
  activeElementLabel,
  goToNth,
  latinUiText,
  launchChromium,
  openConsole,
  poll,
  shellOffsets,
  shot,
} from './page-helpers'

let browser: Browser | undefined

beforeAll(async () => {
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
})

const SHAPE: OutcomeShape = {
  type: 'object',
  properties: { guestName: { type: 'string' }, visitDate: { type: 'string' }, rating: { type: 'integer', enum: [1, 2, 3, 4, 5] } },
}

/** Two agents and their calls of the last minutes: 4 of the front desk (one failed), 1 of sales. */
async function seed(runtime: Runtime): Promise<void> {
  const projectId = runtime.bootstrap.projectId
  const [key] = await runtime.store.accounts.listKeys(projectId)
  const caller = { projectId, apiKeyId: key?.id ?? '', userId: runtime.bootstrap.userId }
  const desk = await createVoiceAgent(runtime.context, caller, { agentName: 'Front desk', outcomeResponseShape: SHAPE })
  // Sales must be the newer (listed first): two creates in the same millisecond are ordered by their random ids.
  await new Promise((resolve) => setTimeout(resolve, 5))
  const sales = await createVoiceAgent(runtime.context, caller, { agentName: 'Sales' })
  const calls: [string, 'COMPLETED' | 'FAILED', string, number, Record<string, unknown> | null][] = [
    [desk.id, 'COMPLETED', 'smart-end', 45, { guestName: 'Sara', visitDate: '2026-11-20', rating: 5 }],
    [desk.id, 'COMPLETED', 'caller-hangup', 130, { guestName: 'Omar', visitDate: null, rating: 4 }],
    [desk.id, 'COMPLETED', 'silence', 20, { guestName: null, visitDate: null, rating: 2 }],
    [desk.id, 'FAILED', 'error', 400, null],
    [sales.id, 'COMPLETED', 'agent-hangup', 70, null],
  ]
  let minute = 2
  for (const [agentId, status, endReason, seconds, outcome] of calls) {
    const createdAt = new Date(Date.now() - (minute += 3) * 60_000).toISOString()
    await runtime.store.jobs.insert(
      jobRecord({
        ...caller,
        type: 'CONVERSATION',
        status,
        voiceAgentId: agentId,
        agentDetails: agentId === desk.id ? 'Front desk' : 'Sales',
        usageSeconds: seconds,
        createdAt,
        updatedAt: createdAt,
        jobResponse: {
          startedAt: createdAt,
          endedAt: createdAt,
          endReason,
          transcript: [
            { role: 'agent', content: 'Hello', startTime: 0, endTime: 1 },
            { role: 'caller', content: 'Hi', startTime: 1.5, endTime: 2 },
            { role: 'agent', content: 'Your name?', startTime: 2.8, endTime: 4, interrupted: true },
          ],
          toolCalls: [],
          outcomeResult: outcome,
          outcomeComplete: outcome === null ? null : outcome.visitDate !== null,
          bargeIns: 1,
          pokes: endReason === 'silence' ? 2 : 0,
          answerDelays: { answers: 1, seconds: 0.8 },
          callerGender: null,
          speechRecognition: { enabled: false, engine: null, model: null },
          dialogueEngine: 'offline',
          params: {},
          tools: [],
        },
      }),
    )
  }
}

async function walk(page: Page, locale: UiLocale, runtime: Runtime): Promise<void> {
  const t = (key: MessageKey) => translate(locale, key)
  // A call made through the API as a client would: counted too (not ended yet).
  const deskId = (await runtime.store.voiceAgents.list(runtime.bootstrap.projectId, {}, 10, 0)).records.find(
    (agent) => agent.agentName === 'Front desk',
  )?.id
  const init = await fetch(`${runtime.context.baseUrl()}/v1/voice-agents/conversation-init`, {
    method: 'POST',
    headers: { authorization: `Token ${runtime.bootstrap.createdKey ?? ''}`, 'content-type': 'application/json' },
    body: JSON.stringify({ voiceAgentId: deskId }),
  })
  expect(init.status).toBe(200)
  await goToNth(page, 8)
  await page.getByRole('heading', { level: 1, name: t('analytics.title') }).waitFor()
  await page.getByLabel(t('analytics.period')).selectOption('LAST_HOUR')
  await poll(() => page.getByTestId('tile-calls').locator('strong').textContent()).toBe(translateCount(locale, 6))
  await page.getByTestId('analytics-time-chart').waitFor()
  await shot(page, `analytics-project-${locale}`)
  // One agent: its four calls and the started one, each outcome field's share.
  await page.getByLabel(t('analytics.agent')).selectOption({ label: 'Front desk' })
  await poll(() => page.getByTestId('tile-calls').locator('strong').textContent()).toBe(translateCount(locale, 5))
  await poll(() => page.getByTestId('analytics-fields').textContent()).toContain('guestName')
  expect(await page.getByTestId('tile-interruptions').locator('strong').textContent()).toBe(translateCount(locale, 0.8))
  expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)
  await shot(page, `analytics-agent-${locale}`)
  // The export: the figures shown, as CSV.
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: t('analytics.export') }).click()
  const file = await (await download).path()
  const csv = readFileSync(file, 'utf8')
  expect(csv.split('\r\n')[0]).toBe('section,name,calls,completed,failed,seconds')
  expect(csv).toContain('outcomeField,guestName,2')
  expect(csv).toContain('endReason,smart-end,1')
}

/**
 * Keyboard alone: Shift+Tab from the agent filter to the export, Enter saves the CSV; Tab back
 * to the filters, where the arrows change the agent and the period. Then the wheel scrolls the
 * screen (not the shell) at 1024×640. Then the service's port closes: a period asked for says the
 * service cannot be reached, with no chart shown as if empty, and Retry brings the charts back
 * once the port is open again.
 */
async function keyboardWheelAndGone(page: Page, runtime: Runtime): Promise<void> {
  const calls = () => page.getByTestId('tile-calls').locator('strong').textContent()
  const agent = page.getByLabel(translate('en', 'analytics.agent'))
  const period = page.getByLabel(translate('en', 'analytics.period'))
  await agent.focus()
  await page.keyboard.press('Shift+Tab')
  expect(await activeElementLabel(page)).toMatch(/^BUTTON/)
  const download = page.waitForEvent('download')
  await page.keyboard.press('Enter')
  expect(readFileSync(await (await download).path(), 'utf8')).toContain('outcomeField,guestName,2')
  await page.keyboard.press('Tab')
  expect(await activeElementLabel(page)).toBe(await agent.evaluate((element) => `SELECT#${element.id}:`))
  // Up from Front desk: Sales (the newer agent, listed first), then all agents.
  await page.keyboard.press('ArrowUp')
  await poll(calls).toBe('1')
  await page.keyboard.press('ArrowUp')
  await poll(calls).toBe('6')
  await page.keyboard.press('Tab')
  await page.keyboard.press('ArrowDown')
  expect(await period.inputValue()).toBe('TODAY')
  await page.keyboard.press('ArrowUp')
  expect(await period.inputValue()).toBe('LAST_HOUR')
  await poll(calls).toBe('6')

  const screen = page.locator('.analytics-screen')
  await page.mouse.move(600, 450)
  await page.mouse.wheel(0, 600)
  await poll(() => screen.evaluate((element) => element.scrollTop)).toBeGreaterThan(0)
  expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)

  const server = runtime.app.server
  const { port, address } = server.address() as AddressInfo
  await new Promise<void>((resolve) => {
    server.close(() => resolve())
    server.closeAllConnections()
  })
  await period.selectOption('TODAY')
  const loadError = page.getByTestId('load-error')
  await loadError.waitFor()
  expect(await loadError.textContent()).toContain('The service cannot be reached')
  expect(await page.getByTestId('analytics-time-chart').count()).toBe(0)
  expect(await page.getByTestId('analytics-tiles').count()).toBe(0)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, address, () => resolve())
  })
  await loadError.getByRole('button', { name: 'Retry' }).click()
  await page.getByTestId('analytics-time-chart').waitFor()
  expect(await loadError.count()).toBe(0)
}

function translateCount(locale: UiLocale, value: number): string {
  return new Intl.NumberFormat(locale).format(value)
}

describe('the Analytics screen', () => {
  it('shows the figures and charts of the calls, for the project and one agent, exports them, by keyboard too, and says when the service is gone (English, 1024×640)', async () => {
    await openConsole(
      browser!,
      {
        label: 'voicedesk-e2e-analytics',
        viewport: { width: 1024, height: 640 },
        // Requests to the service while its port is closed are expected here.
        ignore: [/Failed to load resource/, /ERR_CONNECTION_REFUSED/, /EventSource/],
      },
      seed,
      async (page, runtime) => {
        await walk(page, 'en', runtime)
        await keyboardWheelAndGone(page, runtime)
      },
    )
  })

  it('reads right to left in Arabic at 1024×640, with no English of ours', async () => {
    await openConsole(
      browser!,
      { label: 'voicedesk-e2e-analytics-ar', locale: 'ar', viewport: { width: 1024, height: 640 } },
      seed,
      async (page, runtime) => {
        await walk(page, 'ar', runtime)
        expect(await page.evaluate(() => (globalThis as unknown as { document: { dir: string } }).document.dir)).toBe('rtl')
        expect(await latinUiText(page)).toEqual([])
      },
    )
  })
})
