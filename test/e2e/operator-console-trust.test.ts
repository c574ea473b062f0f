// An operator console to trust all day: an unsaved agent draft is never lost without asking
// (leaving asks: stay, discard, save; Ctrl+S saves and keeps the focus; a refusal lands on its
// field); the status bar tells the truth about the link to the service when it is killed and
// started again under an open page, which finds its own way back; the Arabic screens carry no
// English.
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createVoiceAgent } from '../../src/service/ops/voice-agents'
import { createRuntime } from '../../src/service/runtime'
import { ROOT, findFreePort, startServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { STEP_MS, activeElementLabel, collectProblems, goToNth, launchChromium, poll, shot } from './page-helpers'

let browser: Browser | undefined

beforeAll(async () => {
  browser = await launchChromium()
}, 90_000)

afterAll(async () => {
  await browser?.close()
})

async function runtimeWithAgents(label: string, names: string[]) {
  const runtime = await createRuntime({ dataDir: makeTempDir(label), port: 0, rendererDir: join(ROOT, 'out', 'renderer') })
  const caller = { projectId: runtime.bootstrap.projectId, apiKeyId: runtime.store.accounts.listKeys(runtime.bootstrap.projectId)[0]!.id, userId: runtime.bootstrap.userId }
  for (const name of names) createVoiceAgent(runtime.context, caller, { agentName: name })
  const url = await runtime.start()
  return { runtime, appUrl: `${url}/app/#token=${runtime.uiToken}` }
}

const nameField = (page: Page) => page.getByLabel('Agent name', { exact: true })
const editorHeading = (page: Page, name: string) => page.getByRole('heading', { name: new RegExp(`^${name}`), level: 2 })

describe('unsaved agent drafts', () => {
  it('asks before leaving (stay keeps the edit, discard drops it, save saves), and Ctrl+S saves in place', async () => {
    const { runtime, appUrl } = await runtimeWithAgents('voicedesk-e2e-drafts', ['Draft agent A', 'Draft agent B'])
    const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    const problems = collectProblems(page)
    try {
      await page.goto(appUrl)
      await page.getByRole('button', { name: /^Draft agent A/ }).click()
      await editorHeading(page, 'Draft agent A').waitFor()

      // An edit marks the draft unsaved, in the editor and in the list.
      await nameField(page).fill('Draft agent A (edited)')
      await page.getByTestId('unsaved-mark').waitFor()
      await page.getByRole('img', { name: 'unsaved changes' }).waitFor()

      // Leaving by the sidebar asks; Stay keeps the edit where it was.
      await goToNth(page, 3)
      const dialog = page.getByRole('dialog', { name: 'Save your changes to Draft agent A?' })
      await dialog.waitFor()
      await shot(page, 'draft-leave-dialog')
      await dialog.getByRole('button', { name: 'Stay' }).click()
      await poll(() => dialog.isVisible()).toBe(false)
      expect(await page.locator('nav .nav-item').nth(0).getAttribute('aria-current')).toBe('page')
      expect(await nameField(page).inputValue()).toBe('Draft agent A (edited)')

      // Another agent asks too; Discard drops the edit and goes there.
      await page.getByRole('button', { name: /^Draft agent B/ }).click()
      await dialog.waitFor()
      await dialog.getByRole('button', { name: 'Discard changes' }).click()
      await editorHeading(page, 'Draft agent B').waitFor()
      await page.getByRole('button', { name: /^Draft agent A/ }).click()
      await editorHeading(page, 'Draft agent A').waitFor()
      expect(await nameField(page).inputValue()).toBe('Draft agent A')

      // Save and continue: saved, then where the operator was going.
      await nameField(page).fill('Draft agent A, saved on leaving')
      await goToNth(page, 5)
      await page.getByRole('dialog').getByRole('button', { name: 'Save and continue' }).click()
      await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor()
      await page.getByText('Draft agent A, saved on leaving saved.').waitFor()
      await goToNth(page, 0)
      await page.getByRole('button', { name: /^Draft agent A, saved on leaving/ }).click()
      expect(await nameField(page).inputValue()).toBe('Draft agent A, saved on leaving')

      // Ctrl+S saves where the operator types, and the focus stays in the field.
      const silence = page.getByLabel('Silence threshold (seconds)')
      await silence.fill('9')
      const focusedBefore = await activeElementLabel(page)
      await page.keyboard.press('Control+s')
      await page.getByText('Draft agent A, saved on leaving saved.').first().waitFor()
      await poll(() => page.getByTestId('unsaved-mark').count()).toBe(0)
      expect(await activeElementLabel(page)).toBe(focusedBefore)
      expect(await silence.inputValue()).toBe('9')
      await page.keyboard.type('0')
      expect(await silence.inputValue()).toBe('90')

      // A draft with something invalid: Revert still works; a save lands on the field in error.
      await silence.fill('')
      await page.getByLabel('Greeting', { exact: true }).focus()
      await page.keyboard.press('Control+s')
      await poll(() => silence.evaluate((element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement)).toBe(true)
      await shot(page, 'draft-error-focused')
      const revert = page.getByRole('button', { name: 'Revert' })
      expect(await revert.getAttribute('aria-disabled')).toBeNull()
      await revert.click()
      // Back to the saved agent (9; the typed 0 was never saved).
      expect(await silence.inputValue()).toBe('9')
      await poll(() => page.getByTestId('unsaved-mark').count()).toBe(0)

      // Closing or reloading the tab asks the browser to confirm.
      await nameField(page).fill('About to reload')
      const asked = new Promise<string>((resolve) => page.once('dialog', (shown) => (resolve(shown.type()), void shown.dismiss())))
      await page.reload({ waitUntil: 'commit' }).catch(() => {})
      expect(await asked).toBe('beforeunload')
      expect(problems).toEqual([])
    } finally {
      await context.close()
      await runtime.stop()
    }
  }, 180_000)
})
