// The shell never scrolls as a whole: at 1024×640 and 2560×1440, left to right and right to
// left, wheel events over every pane of every screen leave the window and the shell where they
// were, with the sidebar and the status bar in view; tables keep their actions in view at 1024 px.
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addPhoneNumber } from '../../src/service/ops/phone-numbers'
import { createVoiceAgent } from '../../src/service/ops/voice-agents'
import { createRuntime, type Runtime } from '../../src/service/runtime'
import { seedJob } from '../helpers/seed-jobs'
import { ROOT } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { STEP_MS, collectProblems, goToNth, launchChromium, shot } from './page-helpers'

let browser: Browser | undefined
let runtime: Runtime | undefined
let appUrl = ''

beforeAll(async () => {
  browser = await launchChromium()
  runtime = await createRuntime({ dataDir: makeTempDir('voicedesk-e2e-layout'), port: 0, rendererDir: join(ROOT, 'out', 'renderer') })
  const caller = {
    projectId: runtime.bootstrap.projectId,
    apiKeyId: (await runtime.store.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id,
    userId: runtime.bootstrap.userId,
  }
  for (let index = 0; index < 60; index += 1)
    await createVoiceAgent(runtime.context, caller, { agentName: `Layout agent ${String(index).padStart(2, '0')}` })
  for (let index = 0; index < 30; index += 1) {
    await addPhoneNumber(runtime.context, caller, {
      type: 'TELEPHONY',
      phoneNumber: `+1415555${2000 + index}`,
      label: `Line ${index}`,
      providerAccountSid: 'AC1',
      providerAuthToken: 'token',
    })
  }
  await runtime.store.transaction(async (tx) => {
    for (let index = 0; index < 400; index += 1) await seedJob(runtime!, { ...caller, title: `Recording ${index}` }, tx)
  })
  const url = await runtime.start()
  appUrl = `${url}/app/#token=${runtime.uiToken}`
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await runtime?.stop()
})

/** Where the window and the shell are scrolled, and whether the sidebar and status bar are whole and in view. */
function shellState(page: Page) {
  return page.evaluate(() => {
    type Box = { top: number; bottom: number; left: number; right: number }
    const g = globalThis as unknown as {
      innerWidth: number
      innerHeight: number
      document: {
        scrollingElement: { scrollTop: number; scrollLeft: number }
        querySelector(selector: string): { scrollTop: number; scrollLeft: number; getBoundingClientRect(): Box } | null
      }
    }
    const inView = (selector: string) => {
      const box = g.document.querySelector(selector)?.getBoundingClientRect()
      return (
        box !== undefined &&
        box.top >= 0 &&
        box.left >= 0 &&
        box.bottom <= g.innerHeight + 0.5 &&
        box.right <= g.innerWidth + 0.5 &&
        box.bottom > box.top
      )
    }
    const offsets = (selector: string) => {
      const element = selector === 'document' ? g.document.scrollingElement : g.document.querySelector(selector)
      return element ? [element.scrollTop, element.scrollLeft] : [0, 0]
    }
    return {
      document: offsets('document'),
      app: offsets('.app'),
      content: offsets('.content'),
      root: offsets('#root'),
      sidebar: inView('.sidebar'),
      statusBar: inView('.status-bar'),
    }
  })
}

const STILL = { document: [0, 0], app: [0, 0], content: [0, 0], root: [0, 0], sidebar: true, statusBar: true }
const PANES = ['.sidebar', '.list-pane', '.detail-pane', '.page', '.jobs-main', '.jobs-scroll', '.table-wrap', '.status-bar']

/** Wheels down, across and back over every pane in view, then checks the shell did not move. */
async function wheelOverEveryPane(page: Page, where: string): Promise<void> {
  for (const selector of PANES) {
    const panes = page.locator(selector)
    for (let index = 0; index < (await panes.count()); index += 1) {
      const box = await panes.nth(index).boundingBox()
      if (!box || box.width < 4 || box.height < 4) continue
      await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200))
      await page.mouse.wheel(0, 4_000)
      await page.mouse.wheel(4_000, 0)
      await page.mouse.wheel(-8_000, 0)
    }
  }
  // Focus deep in a pane (what made the window scroll before: a visually hidden label far down).
  await page.keyboard.press('End')
  await page.waitForTimeout(150)
  expect(await shellState(page), where).toEqual(STILL)
}

/** Every screen, with a list item and a job open so that detail panes are there too. */
async function walkScreens(page: Page, label: string): Promise<void> {
  const screens = ['agents', 'templates', 'numbers', 'jobs', 'webhooks', 'settings', 'requests', 'faults']
  for (const [index, screen] of screens.entries()) {
    await goToNth(page, index)
    if (screen === 'agents') {
      await page.locator('.item-list .item').nth(40).click()
      await page.locator('.editor').waitFor()
    }
    if (screen === 'templates') await page.locator('.template-card').first().waitFor()
    if (screen === 'numbers') await page.getByRole('combobox').first().waitFor()
    if (screen === 'jobs') {
      await page.locator('.jobs-row[data-index="3"]').click()
      await page.getByTestId('job-detail-status').waitFor()
    }
    if (screen === 'settings') await page.locator('.table-wrap .table tbody tr').first().waitFor()
    if (screen === 'requests') await page.locator('#requests-title').waitFor()
    if (screen === 'faults') await page.locator('#fault-add-title').waitFor()
    await wheelOverEveryPane(page, `${label} ${screen}`)
    await shot(page, `layout-${label}-${screen}`)
  }
}

describe('the operator console layout', () => {
  for (const [width, height] of [
    [1024, 640],
    [2560, 1440],
  ] as const) {
    for (const locale of ['en', 'ar'] as const) {
      it(`never scrolls the shell at ${width}×${height} in ${locale === 'ar' ? 'Arabic (right to left)' : 'English'}`, async () => {
        const context = await browser!.newContext({ viewport: { width, height }, locale: locale === 'ar' ? 'ar' : 'en-US' })
        const page = await context.newPage()
        page.setDefaultTimeout(STEP_MS)
        const problems = collectProblems(page)
        try {
          await page.addInitScript(
            (chosen: string) =>
              (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
                'voicedesk.locale',
                chosen,
              ),
            locale,
          )
          await page.goto(appUrl)
          await page.locator('.item-list .item').first().waitFor()
          expect(await page.evaluate(() => (globalThis as unknown as { document: { dir: string } }).document.dir)).toBe(
            locale === 'ar' ? 'rtl' : 'ltr',
          )
          await walkScreens(page, `${width}-${locale}`)
          expect(problems).toEqual([])
        } finally {
          await context.close()
        }
      }, 240_000)
    }
  }

  it('keeps every table action in view at 1024 px: optional columns go, actions stay', async () => {
    const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    try {
      await page.goto(appUrl)
      const withinView = async (selector: string) => {
        const box = (await page.locator(selector).first().boundingBox())!
        const wrap = (await page.locator(selector).first().locator('xpath=ancestor::div[contains(@class,"table-wrap")]').boundingBox())!
        return box.x >= wrap.x && box.x + box.width <= wrap.x + wrap.width + 0.5 && box.x + box.width <= 1024
      }
      await goToNth(page, 2)
      await page
        .getByRole('button', { name: /^Delete \+1415555/ })
        .first()
        .waitFor()
      expect(await withinView('td.actions button')).toBe(true)
      expect(await page.locator('th.col-optional').first().isVisible()).toBe(false)
      await goToNth(page, 5)
      await page
        .getByRole('button', { name: /^Revoke / })
        .first()
        .waitFor()
      expect(await withinView('td.actions button')).toBe(true)
    } finally {
      await context.close()
    }
  }, 120_000)
})
