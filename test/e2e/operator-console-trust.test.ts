// An operator console to trust all day: an unsaved agent draft is never lost without asking
// (leaving asks: stay, discard, save; Ctrl+S saves and keeps the focus; a refusal lands on its
// field; a save while the service is down says the edit was not saved and keeps it); the status
// bar tells the truth about the link to the service when it is killed and started again under an
// open page, which finds its own way back; the Arabic screens carry no English, and an English
// agent name lines up on the right with the rest of them.
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createVoiceAgent } from '../../src/service/ops/voice-agents'
import { createRuntime } from '../../src/service/runtime'
import { ROOT, findFreePort, startServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { STEP_MS, activeElementLabel, collectProblems, goToNth, latinUiText, launchChromium, poll, shot } from './page-helpers'

let browser: Browser | undefined

beforeAll(async () => {
  browser = await launchChromium()
}, 90_000)

afterAll(async () => {
  await browser?.close()
})

async function runtimeWithAgents(label: string, names: string[]) {
  const runtime = await createRuntime({ dataDir: makeTempDir(label), port: 0, rendererDir: join(ROOT, 'out', 'renderer') })
  const caller = {
    projectId: runtime.bootstrap.projectId,
    apiKeyId: (await runtime.store.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id,
    userId: runtime.bootstrap.userId,
  }
  for (const name of names) await createVoiceAgent(runtime.context, caller, { agentName: name })
  const url = await runtime.start()
  return { runtime, appUrl: `${url}/app/#token=${runtime.uiToken}` }
}

/** How far the text inside an element stops short of its box's right edge (0 for text aligned right in an unpadded box). */
function gapOnTheRight(element: Locator): Promise<number> {
  return element.evaluate((node: { getBoundingClientRect(): { right: number } }) => {
    const { document } = globalThis as unknown as {
      document: { createRange(): { selectNodeContents(node: unknown): void; getBoundingClientRect(): { right: number } } }
    }
    const range = document.createRange()
    range.selectNodeContents(node)
    return node.getBoundingClientRect().right - range.getBoundingClientRect().right
  })
}

const nameField = (page: Page) => page.getByLabel('Agent name', { exact: true })
const editorHeading = (page: Page, name: string) => page.getByRole('heading', { name: new RegExp(`^${name}`), level: 2 })

describe('the Arabic interface', () => {
  it('shows no English on its screens', async () => {
    const { runtime, appUrl } = await runtimeWithAgents('voicedesk-e2e-arabic', ['Front desk'])
    const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: 'ar' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    try {
      await page.addInitScript(() =>
        (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('voicedesk.locale', 'ar'),
      )
      await page.goto(appUrl)
      const offenders: Record<string, string[]> = {}
      const screens = ['agents', 'templates', 'numbers', 'jobs', 'webhooks', 'settings']
      for (const [index, screen] of screens.entries()) {
        await goToNth(page, index)
        if (screen === 'agents') {
          await page.getByRole('button', { name: /^Front desk/ }).click()
          await page.locator('.editor').waitFor()
          await page.locator('details.preview-details summary').click()
          // An English name lines up on the right like the rest of the Arabic page: the list's row
          // with its language and voice under it, the editor's heading with the title of its card.
          const item = page.getByRole('button', { name: /^Front desk/ })
          expect(await gapOnTheRight(item.locator('.item-title'))).toBeLessThan(2)
          expect(await gapOnTheRight(item.locator('.item-meta'))).toBeLessThan(2)
          expect(await gapOnTheRight(page.locator('.editor h2').first())).toBeLessThan(2)
        }
        if (screen === 'templates') await page.locator('.template-card').first().waitFor()
        if (screen === 'settings') await page.locator('.table-wrap .table tbody tr').first().waitFor()
        await page.waitForTimeout(300)
        const latin = await latinUiText(page)
        if (latin.length > 0) offenders[screen] = latin
        await shot(page, `arabic-${screen}`)
      }
      expect(offenders).toEqual({})
    } finally {
      await context.close()
      await runtime.stop()
    }
  }, 180_000)
})

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
      await poll(() =>
        silence.evaluate(
          (element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
        ),
      ).toBe(true)
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

describe('saving while the service is down', () => {
  it('says the edit was not saved and is kept, and keeps it unsaved in the editor', async () => {
    const { runtime, appUrl } = await runtimeWithAgents('voicedesk-e2e-dead-save', ['Dead save agent'])
    const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    // Requests to a dead service are expected here.
    const problems = collectProblems(page, [/Failed to load resource/, /ERR_CONNECTION_REFUSED/, /EventSource/])
    try {
      await page.goto(appUrl)
      await page.getByRole('button', { name: /^Dead save agent/ }).click()
      await editorHeading(page, 'Dead save agent').waitFor()
      const pause = page.getByLabel('End-of-turn pause (milliseconds)')
      await pause.fill('750')
      await runtime.stop()
      await page.keyboard.press('Control+s')
      await page
        .getByText('Not saved: the VoiceDesk service cannot be reached. Your changes stay here; save again once it is back.')
        .waitFor()
      await shot(page, 'draft-save-service-down')
      expect(await page.getByText('The VoiceDesk service cannot be reached. It keeps being tried.').count()).toBe(0)
      expect(await pause.inputValue()).toBe('750')
      await page.getByTestId('unsaved-mark').first().waitFor()
      expect(problems).toEqual([])
    } finally {
      await context.close()
      await runtime.stop()
    }
  }, 180_000)
})

describe('the link to the service', () => {
  it('shows the link lost when the service is killed, and finds the way back when it starts again on the same port and data', async () => {
    const dataDir = makeTempDir('voicedesk-e2e-link')
    const port = await findFreePort()
    const apiKey = 'vd_link_test_key_0123456789abcdef'
    const serveArgs = ['--port', String(port)]
    const env = { VOICEDESK_API_KEY: apiKey }
    let server = await startServe(dataDir, serveArgs, { env })
    const firstLink = /^Operator UI: (\S+)$/m.exec(server.cli.stdout())![1]!
    const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    // Requests to a dead service, and the refused token after the restart, are expected here.
    const problems = collectProblems(page, [/Failed to load resource/, /ERR_CONNECTION_REFUSED/, /EventSource/])
    const linkState = page.getByTestId('link-state')
    try {
      await page.goto(firstLink)
      await poll(() => linkState.getAttribute('data-state')).toBe('connected')
      await goToNth(page, 3)
      await page.getByText('0 of 0').waitFor()

      // Killed: the status bar says so at once (the event stream broke) and counts down to the next try.
      server.cli.child.kill('SIGKILL')
      await server.cli.waitForExit()
      await poll(() => linkState.getAttribute('data-state'), 15_000).toMatch(/reconnecting|lost/)
      expect(await linkState.textContent()).toMatch(/retrying in \d+ s|next try in \d+ s/)
      // A list asked for now fails in words, with Retry, instead of spinning.
      await page.getByRole('combobox', { name: 'Status' }).selectOption('FAILED')
      const loadError = page.getByTestId('load-error')
      await loadError.waitFor()
      expect(await loadError.textContent()).toContain('The service cannot be reached')
      await loadError.getByRole('button', { name: 'Retry' }).waitFor()
      await poll(() => linkState.getAttribute('data-state'), 20_000).toBe('lost')
      await shot(page, 'link-lost')

      // Started again, same port and data folder: a new token (one per start), so the tab lands
      // by itself on the way back, which takes the new Operator UI link pasted.
      server = await startServe(dataDir, serveArgs, { env })
      const secondLink = /^Operator UI: (\S+)$/m.exec(server.cli.stdout())![1]!
      expect(secondLink).not.toBe(firstLink)
      const created = await fetch(`http://127.0.0.1:${port}/v1/voice-agents`, {
        method: 'POST',
        headers: { authorization: `Token ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agentName: 'Made while the tab waited' }),
      })
      expect(created.ok).toBe(true)
      await page.getByRole('heading', { name: 'This link has expired' }).waitFor({ timeout: 45_000 })
      await shot(page, 'link-way-back')
      const pasteField = page.getByLabel('Paste the Operator UI link (or its token)')
      await pasteField.fill('http://127.0.0.1/app/')
      await page.getByRole('button', { name: 'Open the operator UI' }).click()
      await page.getByText('That is not an Operator UI link').waitFor()
      await pasteField.fill(`Operator UI: ${firstLink}`)
      await page.getByRole('button', { name: 'Open the operator UI' }).click()
      await page.getByText('The service refused this token').waitFor()
      await pasteField.fill(`Operator UI: ${secondLink}`)
      await page.getByRole('button', { name: 'Open the operator UI' }).click()
      await poll(() => linkState.getAttribute('data-state')).toBe('connected')
      // Back where the operator was (the deep link survives the reload), and the lists are fresh.
      expect(new URL(page.url()).hash).toBe('#/jobs')
      await shot(page, 'link-back')
      await goToNth(page, 0)
      await page.getByRole('button', { name: /^Made while the tab waited/ }).waitFor()
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 180_000)

  it('recovers by itself, lists refreshed, when the same service answers again after hanging', async () => {
    const dataDir = makeTempDir('voicedesk-e2e-hang')
    const apiKey = 'vd_hang_test_key_0123456789abcdef'
    const server = await startServe(dataDir, ['--port', '0'], { env: { VOICEDESK_API_KEY: apiKey } })
    const link = /^Operator UI: (\S+)$/m.exec(server.cli.stdout())![1]!
    const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    const linkState = page.getByTestId('link-state')
    try {
      await page.goto(link)
      await poll(() => linkState.getAttribute('data-state')).toBe('connected')
      await page.getByText('0 of 0').waitFor()
      // Stopped (not killed): requests hang, the token stays good. The checks time out.
      server.cli.child.kill('SIGSTOP')
      await poll(() => linkState.getAttribute('data-state'), 30_000).toMatch(/reconnecting|lost/)
      // The job counts are the last known while the link is down, and say so.
      expect(await page.getByTestId('job-counts').textContent()).toBe('0 running · 0 waiting, when last connected')
      server.cli.child.kill('SIGCONT')
      await fetch(`${server.url}/v1/voice-agents`, {
        method: 'POST',
        headers: { authorization: `Token ${apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ agentName: 'Made during the hang' }),
      })
      await poll(() => linkState.getAttribute('data-state'), 45_000).toBe('connected')
      expect(await page.getByTestId('job-counts').textContent()).toBe('0 running · 0 waiting')
      // The agents list (no live events for agents) was loaded again on the link's return.
      await page.getByRole('button', { name: /^Made during the hang/ }).waitFor()
    } finally {
      server.cli.child.kill('SIGCONT')
      await context.close()
    }
  }, 180_000)
})
