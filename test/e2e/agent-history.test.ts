// An agent's History tab in Chromium against the service: three changes made over /v1 (a real
// PATCH with the key of this start), the versions listed with where they came from, a version
// against the agent now, a restore that brings the greeting back as a new version on top; an
// agent with many versions (Show more), one with only its first; in Arabic at 1024×640 with no
// English of ours and no page scroll; and a restore while the service is gone (nothing lost).
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { translate, type MessageKey, type MessageVars } from '../../src/renderer/src/i18n/dictionary'
import { cloneVoiceAgent, createVoiceAgent, updateVoiceAgent } from '../../src/service/ops/voice-agents'
import { createRuntime, type Runtime } from '../../src/service/runtime'
import { ROOT } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { SHELL_AT_REST, STEP_MS, latinUiText, launchChromium, openConsole, poll, shellOffsets, shot } from './page-helpers'

let browser: Browser | undefined

beforeAll(async () => {
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
})

const FIRST_GREETING = 'Hello, this is the front desk.'
const NEW_GREETING = 'Good morning from the front desk.'

async function callerOf(runtime: Runtime) {
  return {
    projectId: runtime.bootstrap.projectId,
    apiKeyId: (await runtime.store.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id,
    userId: runtime.bootstrap.userId,
  }
}

/** An agent made in the service (version 1). */
async function makeAgent(runtime: Runtime, agentName: string): Promise<string> {
  const agent = await createVoiceAgent(runtime.context, await callerOf(runtime), { agentName, greetingMessage: FIRST_GREETING })
  return agent.id
}

/** PATCH /v1/voice-agents/{id} as a client would, with the key made on this start. */
async function patchOverApi(runtime: Runtime, id: string, changes: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${runtime.context.baseUrl()}/v1/voice-agents/${id}`, {
    method: 'PATCH',
    headers: { authorization: `Token ${runtime.bootstrap.createdKey!}`, 'content-type': 'application/json' },
    body: JSON.stringify(changes),
  })
  expect(response.status).toBe(200)
}

/** The three changes: the greeting, a setting, then the prompt over several lines. */
async function threeChanges(runtime: Runtime, id: string): Promise<void> {
  await patchOverApi(runtime, id, { greetingMessage: NEW_GREETING })
  await patchOverApi(runtime, id, { silenceThreshold: 9 })
  await patchOverApi(runtime, id, { preamble: 'You answer the phone.\nBe brief.\nSay goodbye.' })
}

const versionNumbers = (page: Page) =>
  page
    .locator('.version-item')
    .evaluateAll((items) => items.map((item) => Number((item as unknown as { dataset: { version: string } }).dataset.version)))

async function openHistory(page: Page, agentName: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^${agentName}`) }).click()
  await page.getByTestId('agent-tab-history').click()
  await page.getByTestId('agent-history').waitFor()
}

describe("an agent's history", () => {
  it('lists the versions, shows a version against now, restores it as a new version on top', async () => {
    let id = ''
    await openConsole(
      browser!,
      { label: 'voicedesk-e2e-history' },
      async (runtime) => {
        id = await makeAgent(runtime, 'History agent')
        // 25 versions: more than a page.
        const busy = await makeAgent(runtime, 'Busy agent')
        const caller = await callerOf(runtime)
        for (let n = 2; n <= 25; n += 1) await updateVoiceAgent(runtime.context, caller, busy, { silenceThreshold: n })
        // A clone: its one version says whose.
        await cloneVoiceAgent(runtime.context, caller, id, { agentName: 'Fresh agent' })
      },
      async (page, runtime) => {
        // Changed over /v1 after the page read its agents: History reads the agent again, the editor starts from it.
        await threeChanges(runtime, id)
        await openHistory(page, 'History agent')
        await poll(() => versionNumbers(page)).toEqual([4, 3, 2, 1])
        const history = page.getByTestId('agent-history')
        await expect(history.locator('.version-item[data-version="1"] .version-origin').textContent()).resolves.toBe('Created')
        await expect(history.locator('.version-item[data-version="4"] .version-origin').textContent()).resolves.toBe('Changed over the API')
        await expect(history.locator('.version-item[data-version="4"] .badge').textContent()).resolves.toBe('Now')
        // The one before now is chosen first: only the prompt differs.
        await expect(history.locator('.version-item[data-version="3"]').getAttribute('aria-pressed')).resolves.toBe('true')
        await poll(() =>
          history.locator('.diff-field').evaluateAll((fields) => fields.map((field) => field.getAttribute('data-field'))),
        ).toEqual(['preamble'])

        // Version 1 against now: the greeting (old line, new line), the prompt and the silence threshold.
        await history.locator('.version-item[data-version="1"]').click()
        const greeting = history.locator('.diff-field[data-field="greetingMessage"]')
        await greeting.waitFor()
        await expect(greeting.locator('dt').textContent()).resolves.toBe('Greeting')
        await expect(greeting.locator('del .diff-line').allTextContents()).resolves.toEqual([FIRST_GREETING])
        await expect(greeting.locator('ins .diff-line').allTextContents()).resolves.toEqual([NEW_GREETING])
        await expect(history.locator('.diff-field[data-field="silenceThreshold"] bdi').allTextContents()).resolves.toEqual(['8', '9'])
        await shot(page, 'history-version-1')

        // The keyboard: arrows move along the list and choose.
        await history.locator('.version-item[data-version="1"]').focus()
        await page.keyboard.press('ArrowUp')
        await expect(history.locator('.version-item[data-version="2"]').getAttribute('aria-pressed')).resolves.toBe('true')
        await page.keyboard.press('ArrowDown')
        await expect(history.locator('.version-item[data-version="1"]').getAttribute('aria-pressed')).resolves.toBe('true')

        // The editor was started again from the agent now, and holds an unsaved change when the restore comes.
        const editor = page.locator('.editor')
        await page.getByTestId('agent-tab-settings').click()
        await expect(editor.getByLabel('Greeting', { exact: true }).inputValue()).resolves.toBe(NEW_GREETING)
        await editor.getByLabel('Greeting', { exact: true }).fill('A greeting not saved yet.')
        await page.getByTestId('agent-tab-history').click()

        // Restore, asked first: Cancel leaves all as it is.
        await page.getByTestId('history-restore').click()
        const dialog = page.getByRole('dialog')
        await dialog.getByText('Your unsaved changes in Settings are kept').waitFor()
        await dialog.getByRole('button', { name: 'Cancel' }).click()
        await expect(versionNumbers(page)).resolves.toEqual([4, 3, 2, 1])
        await page.getByTestId('history-restore').click()
        await dialog.getByRole('button', { name: 'Restore', exact: true }).click()
        await page.locator('.toast-success', { hasText: 'Version 1 restored: History agent is now version 5.' }).waitFor()
        await poll(() => versionNumbers(page)).toEqual([5, 4, 3, 2, 1])
        await expect(history.locator('.version-item[data-version="5"] .version-origin').textContent()).resolves.toBe('Restore of version 1')
        await expect(history.locator('.version-item[data-version="5"] .badge').textContent()).resolves.toBe('Now')
        await history.getByText('Version 1 is the agent as it is now: there is nothing to restore.').waitFor()
        await expect(page.getByTestId('history-restore').isDisabled()).resolves.toBe(true)
        // The editor holds the restored agent, with nothing unsaved.
        await page.getByTestId('agent-tab-settings').click()
        await expect(editor.getByLabel('Greeting', { exact: true }).inputValue()).resolves.toBe(FIRST_GREETING)
        await expect(editor.getByLabel('Silence threshold (seconds)', { exact: true }).inputValue()).resolves.toBe('8')
        // The unsaved change is not lost: offered back (and here let go).
        await page.getByTestId('draft-offer').getByRole('button', { name: 'Discard' }).click()
        const stored = await fetch(`${runtime.context.baseUrl()}/v1/voice-agents/${id}`, {
          headers: { authorization: `Token ${runtime.bootstrap.createdKey!}` },
        })
        expect(((await stored.json()) as { data: { greetingMessage: string } }).data.greetingMessage).toBe(FIRST_GREETING)

        // Many versions: a page, then the rest on demand.
        await openHistory(page, 'Busy agent')
        await poll(() => versionNumbers(page).then((numbers) => numbers.length)).toBe(20)
        await page.getByRole('button', { name: 'Show 5 more' }).focus()
        await page.keyboard.press('Enter')
        await poll(() => versionNumbers(page)).toEqual(Array.from({ length: 25 }, (_, index) => 25 - index))
        // All shown, the button gone: focus is on the first version it brought, not lost.
        await poll(() =>
          page.evaluate(
            () =>
              (globalThis as unknown as { document: { activeElement: { dataset?: { version?: string } } | null } }).document.activeElement
                ?.dataset?.version,
          ),
        ).toBe('5')
        await expect(page.getByRole('button', { name: /^Show \d+ more/ }).count()).resolves.toBe(0)

        // Only the first version: said, and nothing to restore.
        await openHistory(page, 'Fresh agent')
        await page
          .getByTestId('agent-history')
          .getByText(/^Only the first version so far/)
          .waitFor()
        await poll(() => versionNumbers(page)).toEqual([1])
        await expect(page.locator('.version-item[data-version="1"] .version-origin').textContent()).resolves.toBe(
          'Clone of \u2068History agent\u2069',
        )
        await expect(page.getByTestId('history-restore').isDisabled()).resolves.toBe(true)
      },
    )
  }, 180_000)

  it('reads well in Arabic at 1024×640: no English of ours, no page scroll, the greeting named', async () => {
    const ar = (key: MessageKey, vars?: MessageVars) => translate('ar', key, vars)
    let id = ''
    await openConsole(
      browser!,
      { label: 'voicedesk-e2e-history-ar', locale: 'ar', viewport: { width: 1024, height: 640 } },
      async (runtime) => {
        id = await makeAgent(runtime, 'وكيل السجل')
      },
      async (page, runtime) => {
        await threeChanges(runtime, id)
        await page.reload()
        await openHistory(page, 'وكيل السجل')
        await poll(() => versionNumbers(page)).toEqual([4, 3, 2, 1])
        const history = page.getByTestId('agent-history')
        await history.locator('.version-item[data-version="1"]').click()
        const greeting = history.locator('.diff-field[data-field="greetingMessage"]')
        await expect(greeting.locator('dt').textContent()).resolves.toBe(ar('agent.greeting'))
        await expect(history.locator('.version-item[data-version="1"] .version-origin').textContent()).resolves.toBe(
          ar('history.origin.create'),
        )
        await page.waitForTimeout(250)
        expect(await latinUiText(page)).toEqual([])
        expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)
        await shot(page, 'history-ar-1024x640')

        // Restore with the keyboard alone: the button, then the dialog's main button.
        await page.getByTestId('history-restore').focus()
        await page.keyboard.press('Enter')
        await page
          .getByRole('dialog')
          .getByRole('button', { name: ar('history.restoreConfirm'), exact: true })
          .focus()
        await page.keyboard.press('Enter')
        await page.locator('.toast-success', { hasText: ar('history.restored', { n: 1, name: 'وكيل السجل', m: 5 }) }).waitFor()
        await poll(() => versionNumbers(page)).toEqual([5, 4, 3, 2, 1])
        await expect(history.locator('.version-item[data-version="5"] .version-origin').textContent()).resolves.toBe(
          ar('history.origin.restore', { n: 1 }),
        )
        expect(await latinUiText(page)).toEqual([])
        expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)
        await shot(page, 'history-ar-1024x640-restored')

        // The tabs in reading order, right to left: Home is Settings, the arrow pointing back (right) wraps to History.
        await page.getByTestId('agent-tab-history').focus()
        await page.keyboard.press('Home')
        await expect(page.getByTestId('agent-tab-settings').getAttribute('aria-selected')).resolves.toBe('true')
        await page.keyboard.press('ArrowRight')
        await expect(page.getByTestId('agent-tab-history').getAttribute('aria-selected')).resolves.toBe('true')
        await page.keyboard.press('ArrowLeft')
        await expect(page.getByTestId('agent-tab-settings').getAttribute('aria-selected')).resolves.toBe('true')
        await page.keyboard.press('ArrowLeft')
        await expect(page.getByTestId('agent-tab-test').getAttribute('aria-selected')).resolves.toBe('true')
      },
    )
  }, 180_000)

  it('with the service gone: a restore says nothing was restored, the diff stays, a version not read says so', async () => {
    const gone = await createRuntime({
      dataDir: makeTempDir('voicedesk-e2e-history-gone'),
      port: 0,
      rendererDir: join(ROOT, 'out', 'renderer'),
    })
    const id = await makeAgent(gone, 'Gone agent')
    const caller = await callerOf(gone)
    await updateVoiceAgent(gone.context, caller, id, { greetingMessage: NEW_GREETING })
    await updateVoiceAgent(gone.context, caller, id, { silenceThreshold: 9 })
    const url = await gone.start()
    const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    try {
      await page.goto(`${url}/app/#token=${gone.uiToken}`)
      await openHistory(page, 'Gone agent')
      const history = page.getByTestId('agent-history')
      await poll(() => versionNumbers(page)).toEqual([3, 2, 1])
      await history.locator('.diff-field').first().waitFor()
      await gone.stop()
      await poll(() => page.getByTestId('link-state').getAttribute('data-state'), 20_000).toMatch(/reconnecting|lost/)
      await page.getByTestId('history-restore').click()
      await page.getByRole('dialog').getByRole('button', { name: 'Restore', exact: true }).click()
      await page.locator('.toast-error', { hasText: 'The service could not be reached: nothing was restored.' }).waitFor()
      // Nothing lost: the list and the diff stay as they were.
      await expect(versionNumbers(page)).resolves.toEqual([3, 2, 1])
      await expect(history.locator('.diff-field[data-field="silenceThreshold"]').count()).resolves.toBe(1)
      await history.locator('.version-item[data-version="1"]').click()
      await history.getByTestId('load-error').getByText('Version 1 could not be loaded.').waitFor()
      await shot(page, 'history-service-gone')
    } finally {
      await context.close()
      await gone.stop()
    }
  }, 180_000)
})
