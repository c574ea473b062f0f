// An agent's Tests tab in Chromium against the service, through the operator bridge's tests.*
// operations with no key asked of the operator: the starter suite generated (or its refusal shown), a suite imported from a
// file and saved, a run with live progress that PASSES with its latencies and a link to each
// call's transcript; a scenario edited in its JSON editor (zod's issues shown before Apply) to
// expect a wrong name, the agent changed, a second run that FAILS with the field's expected and got,
// and "what changed since the last green run" naming the scenario and the greeting's change. In
// English, and in Arabic at 1024×640 (no English of ours, no page scroll), the Run button reached
// with the keyboard alone. Screenshots: /tmp/tests-tab-*.png.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { translate, type MessageKey, type MessageVars } from '../../src/renderer/src/i18n/dictionary'
import { formatCount } from '../../src/renderer/src/lib/format'
import type { Runtime } from '../../src/service/runtime'
import { makeTempDir } from '../helpers/temp-dir'
import { SHELL_AT_REST, latinUiText, launchChromium, openConsole, poll, shellOffsets, shot } from './page-helpers'

let browser: Browser | undefined

beforeAll(async () => {
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
})

/** One line, then the caller hangs up: the outcome holds what the call is about. (Calls run in real time: short ones.) */
const INTENT_ONLY = {
  name: 'intent only',
  caller: { say: ['I want to book a table'] },
  expect: { outcome: { requestType: 'new_reservation', guestName: { absent: true } }, endReason: 'caller-hangup' },
}

/** Two lines, then the caller hangs up: the outcome holds the name. */
const SHORT_CALL = {
  name: 'short call',
  caller: { say: ['I want to book a table', 'My name is Sara Haddad'] },
  expect: { outcome: { guestName: 'Sara Haddad' }, endReason: 'caller-hangup', maxTurns: 2 },
}

/** /v1 as a client, with the key made on this start. */
async function v1<T>(runtime: Runtime, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${runtime.context.baseUrl()}${path}`, {
    method,
    headers: { authorization: `Token ${runtime.bootstrap.createdKey!}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const answer = (await response.json()) as { data: T }
  expect(response.status, JSON.stringify(answer)).toBe(200)
  return answer.data
}

async function restaurantAgent(runtime: Runtime, agentName: string): Promise<string> {
  const templates = await v1<{ id: string; agentName: string }[]>(runtime, 'GET', '/v1/voice-agents/templates')
  const template = templates.find((candidate) => candidate.agentName === 'Restaurant Reservations')!
  return (await v1<{ id: string }>(runtime, 'POST', `/v1/voice-agents/clone?voiceAgentId=${template.id}`, { agentName })).id
}

const screenshot = (page: Page, name: string) => shot(page, `tests-tab-${name}`)

/** The agent's Tests tab: no key asked, the tab itself at once. */
async function openTests(page: Page, agentName: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${agentName}`) }).click()
  await page.getByTestId('agent-tab-tests').click()
  await page.getByTestId('agent-tests').waitFor()
}

/**
 * Generate: the starter suite fills the editor (unsaved), or the service's refusal is shown as any
 * other. Either way, then, a suite file imported in its place, and saved.
 */
async function generateImportSave(page: Page, locale: 'en' | 'ar'): Promise<void> {
  const t = (key: MessageKey, vars?: MessageVars) => translate(locale, key, vars)
  await page.getByTestId('tests-empty').waitFor()
  await page
    .getByTestId('tests-empty')
    .getByRole('button', { name: t('tests.generate') })
    .click()
  const generated = page.getByTestId('tests-scenarios')
  const refused = page.locator('.toast-error')
  await poll(async () => (await generated.count()) + (await refused.count())).toBeGreaterThan(0)
  const wasGenerated = (await generated.count()) > 0
  if (wasGenerated) {
    expect(await generated.locator('tbody tr').count()).toBeGreaterThan(0)
    await page.getByTestId('tests-unsaved').waitFor()
    await screenshot(page, `${locale}-generated`)
  }
  // Import (a file chosen in the page's own picker).
  const file = join(makeTempDir('voicedesk-e2e-tests-file'), 'suite.json')
  writeFileSync(file, JSON.stringify({ scenarios: [INTENT_ONLY, SHORT_CALL] }))
  await page.getByTestId('tests-import-file').setInputFiles(file)
  // Over a generated suite not saved yet, the file asks first.
  if (wasGenerated)
    await page
      .getByRole('dialog')
      .getByRole('button', { name: t('tests.replaceConfirm') })
      .click()
  await poll(() =>
    page.locator('[data-testid="tests-scenarios"] tbody tr').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-scenario'))),
  ).toEqual(['intent only', 'short call'])
  const short = page.locator('tr[data-scenario="short call"] td')
  await expect(short.nth(2).textContent()).resolves.toBe(t('tests.caller.scripted'))
  await expect(short.nth(3).textContent()).resolves.toBe(formatCount(3, locale))
  await page.getByTestId('tests-save').click()
  await page.locator('.toast-success', { hasText: t('tests.saved') }).waitFor()
  await expect(page.getByTestId('tests-unsaved').count()).resolves.toBe(0)
}

/** Runs and watches it run: progress while RUNNING, then the run's status. */
async function runAndWatch(page: Page, status: 'PASSED' | 'FAILED', locale: 'en' | 'ar'): Promise<void> {
  const t = (key: MessageKey, vars?: MessageVars) => translate(locale, key, vars)
  const result = page.getByTestId('tests-run-result')
  await poll(() => result.getAttribute('data-status')).toBe('RUNNING')
  await expect(page.getByTestId('tests-progress').textContent()).resolves.toMatch(/(0|1|٠|١)/)
  await expect(page.getByRole('progressbar').count()).resolves.toBe(1)
  await poll(() => result.getAttribute('data-status'), 150_000).toBe(status)
  await expect(page.getByTestId('tests-progress').textContent()).resolves.toBe(
    t('tests.progress', { n: formatCount(2, locale), m: formatCount(2, locale) }),
  )
}

/** Edits the short call to expect another name: a broken edit first (its issues shown, Apply disabled). */
async function expectWrongName(page: Page, locale: 'en' | 'ar'): Promise<void> {
  const t = (key: MessageKey, vars?: MessageVars) => translate(locale, key, vars)
  await page.getByRole('button', { name: t('tests.editNamed', { name: 'short call' }) }).click()
  const editor = page.getByTestId('scenario-editor')
  const json = editor.getByLabel(t('tests.scenarioJson'))
  // The JSON has the focus once the editor opens.
  await poll(() =>
    json.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement),
  ).toBe(true)
  await json.fill(JSON.stringify({ ...SHORT_CALL, caller: {} }, null, 2))
  await editor.getByTestId('scenario-issues').waitFor()
  await expect(editor.getByTestId('scenario-issues').textContent()).resolves.toContain('caller')
  await expect(editor.getByRole('button', { name: t('tests.apply') }).isDisabled()).resolves.toBe(true)
  await editor.getByTestId('scenario-issues').scrollIntoViewIfNeeded()
  await screenshot(page, `${locale}-issues`)
  await json.fill(JSON.stringify({ ...SHORT_CALL, expect: { ...SHORT_CALL.expect, outcome: { guestName: 'Someone Else' } } }, null, 2))
  await expect(editor.getByTestId('scenario-issues').count()).resolves.toBe(0)
  await editor.getByRole('button', { name: t('tests.apply') }).click()
  await page.getByTestId('tests-unsaved').waitFor()
  await page.getByTestId('tests-save').click()
  await page
    .locator('.toast-success', { hasText: t('tests.saved') })
    .last()
    .waitFor()
  await expect(page.getByTestId('tests-unsaved').count()).resolves.toBe(0)
}

async function walk(page: Page, runtime: Runtime, agentName: string, locale: 'en' | 'ar'): Promise<void> {
  const agentId = await restaurantAgent(runtime, agentName)
  await page.reload()
  await openTests(page, agentName)
  await screenshot(page, `${locale}-empty`)
  await generateImportSave(page, locale)
  await screenshot(page, `${locale}-suite`)

  // The Run button with the keyboard alone: from the tab, Tab reaches it; Enter runs.
  await page.getByTestId('agent-tab-tests').focus()
  const focusedTestId = () =>
    page.evaluate(
      () =>
        (
          globalThis as unknown as { document: { activeElement: { getAttribute(name: string): string | null } | null } }
        ).document.activeElement?.getAttribute('data-testid') ?? null,
    )
  let presses = 0
  while ((await focusedTestId()) !== 'tests-run-button' && presses < 30) {
    await page.keyboard.press('Tab')
    presses += 1
  }
  expect(await focusedTestId()).toBe('tests-run-button')
  // Past the scenarios' own buttons, the suite's, and the two numbers: a dozen presses at most.
  expect(presses).toBeLessThanOrEqual(12)
  await page.keyboard.press('Enter')
  await screenshot(page, `${locale}-running`)
  await runAndWatch(page, 'PASSED', locale)
  const results = page.getByTestId('scenario-result')
  await expect(
    results.evaluateAll((items) => items.map((item) => [item.getAttribute('data-scenario'), item.getAttribute('data-status')])),
  ).resolves.toEqual([
    ['intent only', 'PASSED'],
    ['short call', 'PASSED'],
  ])
  const intent = page.locator('[data-testid="scenario-result"][data-scenario="intent only"]')
  await expect(intent.locator('[data-field="requestType"] .diff-got').textContent()).resolves.toBe('"new_reservation"')
  await expect(intent.locator('.tests-facts code').textContent()).resolves.toBe('caller-hangup')
  await screenshot(page, `${locale}-passed`)
  if (locale === 'ar') {
    await page.waitForTimeout(250)
    expect(await latinUiText(page)).toEqual([])
  }

  // The agent changes (a new version), and the short call now expects a name it will not get.
  await v1(runtime, 'PATCH', `/v1/voice-agents/${agentId}`, { greetingMessage: 'Welcome to the new Olive & Ember line.' })
  await expectWrongName(page, locale)
  await page.getByTestId('tests-run-button').click()
  await runAndWatch(page, 'FAILED', locale)
  const short = page.locator('[data-testid="scenario-result"][data-scenario="short call"]')
  await expect(short.getAttribute('data-status')).resolves.toBe('FAILED')
  const name = short.locator('tr[data-field="guestName"]')
  await expect(name.getAttribute('class')).resolves.toBe('field-fail')
  await expect(name.locator('.diff-expected').textContent()).resolves.toBe('"Someone Else"')
  await expect(name.locator('.diff-got').textContent()).resolves.toBe('"Sara Haddad"')

  // History: both runs, newest first, by version; what changed since the green one.
  const runs = page.locator('[data-testid="tests-runs"] tbody tr')
  await poll(() => runs.count()).toBe(2)
  await expect(runs.nth(0).locator('.badge').getAttribute('data-status')).resolves.toBe('FAILED')
  await expect(runs.nth(1).locator('.badge').getAttribute('data-status')).resolves.toBe('PASSED')
  await expect(runs.nth(0).locator('td').nth(1).textContent()).resolves.toBe(formatCount(2, locale))
  await expect(runs.nth(1).locator('td').nth(1).textContent()).resolves.toBe(formatCount(1, locale))
  const since = page.getByTestId('since-green')
  await expect(since.getByTestId('broken-scenarios').locator('li').allTextContents()).resolves.toEqual(['short call'])
  await since.locator('[data-testid="version-diff"] .diff-field[data-field="greetingMessage"]').waitFor()
  await expect(since.locator('ins .diff-line').allTextContents()).resolves.toEqual(['Welcome to the new Olive & Ember line.'])
  await short.scrollIntoViewIfNeeded()
  await screenshot(page, `${locale}-failed`)
  await since.scrollIntoViewIfNeeded()
  await screenshot(page, `${locale}-since-green`)
  if (locale === 'ar') {
    await page.waitForTimeout(250)
    expect(await latinUiText(page)).toEqual([])
  }
  expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)

  // The transcript link opens the call in the jobs monitor.
  const conversationId = (await short.getByTestId('scenario-transcript').getAttribute('href'))!.replace('#/jobs/', '')
  await short.getByTestId('scenario-transcript').click()
  await poll(() => page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)).toBe(
    `#/jobs/${conversationId}`,
  )
  await page.getByTestId('job-detail-status').waitFor()
  await screenshot(page, `${locale}-transcript`)
}

describe("an agent's Tests tab", () => {
  it('generates, imports and saves a suite, runs it to PASSED with live progress, then a wrong expectation to FAILED with its diff', async () => {
    await openConsole(
      browser!,
      { label: 'voicedesk-e2e-tests-tab' },
      async () => {},
      async (page, runtime) => walk(page, runtime, 'Tests agent', 'en'),
    )
  }, 420_000)

  it('reads well in Arabic at 1024×640, the Run button reached with the keyboard', async () => {
    await openConsole(
      browser!,
      { label: 'voicedesk-e2e-tests-tab-ar', locale: 'ar', viewport: { width: 1024, height: 640 } },
      async () => {},
      async (page, runtime) => walk(page, runtime, 'وكيل الاختبارات', 'ar'),
    )
  }, 420_000)
})
