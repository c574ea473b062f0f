// The Faults panel in real Chromium, at 1024×640, in English and in Arabic: a rule added in the
// panel (a refusal shown beside its field first), the red status-bar badge while it is active,
// a real /v1 call from this process meeting the injected error, its hit counted in the list,
// the badge opening the panel from another screen, and the badge gone once the rule is removed.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Runtime } from '../../src/service/runtime'
import { STEP_MS, goToNth, latinUiText, launchChromium, openConsole, poll, shot } from './page-helpers'

let browser: Browser | undefined

beforeAll(async () => {
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
})

const NARROW = { width: 1024, height: 640 }

/** GET /v1/voice-agents with the key made on this start, as a client would. */
async function listAgents(
  runtime: Runtime,
): Promise<{ status: number; body: { success: boolean; message: string; error?: { code: string } } }> {
  const response = await fetch(`${runtime.context.baseUrl()}/v1/voice-agents`, {
    headers: { authorization: `Token ${runtime.bootstrap.createdKey!}` },
  })
  return { status: response.status, body: (await response.json()) as { success: boolean; message: string; error?: { code: string } } }
}

/** Whether the window or the shell scrolled (the shell must never scroll as a whole). */
function shellScrolled(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const g = globalThis as unknown as {
      document: { scrollingElement: { scrollTop: number; scrollLeft: number }; querySelector(s: string): { scrollTop: number } | null }
    }
    return (
      g.document.scrollingElement.scrollTop !== 0 ||
      g.document.scrollingElement.scrollLeft !== 0 ||
      (g.document.querySelector('.app')?.scrollTop ?? 0) !== 0
    )
  })
}

/** The badge's box is inside the window (not cut off by the status bar's overflow). */
function badgeInView(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const g = globalThis as unknown as {
      innerWidth: number
      innerHeight: number
      document: { querySelector(s: string): { getBoundingClientRect(): DOMRectLike } | null }
    }
    type DOMRectLike = { left: number; right: number; top: number; bottom: number }
    const box = g.document.querySelector('[data-testid="fault-badge"]')?.getBoundingClientRect()
    return box !== undefined && box.left >= 0 && box.right <= g.innerWidth && box.top >= 0 && box.bottom <= g.innerHeight
  })
}

describe(
  'the Faults panel',
  () => {
    it('adds a rule that /v1 answers with, shows the badge while it is active, and removes it (English, 1024×640)', async () => {
      await openConsole(
        browser!,
        { label: 'voicedesk-e2e-faults-en', viewport: NARROW },
        async () => {},
        async (page, runtime) => {
          await page.locator('.status-bar').waitFor()
          expect(await page.getByTestId('fault-badge').count()).toBe(0)
          await goToNth(page, 7)
          await page.getByRole('heading', { name: 'Fault injection' }).waitFor()

          // A status that is not an error: refused, the message beside its field.
          await page.getByLabel('Path').fill('/v1/voice-agents')
          await page.getByLabel('HTTP status').fill('200')
          await page.getByRole('button', { name: 'Add rule' }).click()
          const statusError = page.locator('.field', { has: page.getByLabel('HTTP status') }).locator('.field-error')
          await poll(() => statusError.textContent()).toMatch(/400/)
          await shot(page, 'faults-en-refused')
          expect(runtime.faults.list(runtime.appCaller.projectId)).toEqual([])

          await page.getByLabel('HTTP status').fill('503')
          await page.getByLabel('Note').fill('demo rehearsal')
          await page.getByRole('button', { name: 'Add rule' }).click()
          const badge = page.getByTestId('fault-badge')
          await poll(() => badge.textContent()).toBe('1 fault active')
          expect(await badgeInView(page)).toBe(true)
          expect(
            await badge.evaluate(
              (element) =>
                (globalThis as unknown as { getComputedStyle(e: unknown): { backgroundColor: string } }).getComputedStyle(element)
                  .backgroundColor,
            ),
          ).toMatch(/^rgb\((1[5-9]\d|2\d\d), \d{1,2}, \d{1,2}\)$/)
          await page.getByTestId('faults-table').waitFor()

          // A real client meets the injected error, in the contract's envelope.
          const faulted = await listAgents(runtime)
          expect(faulted.status).toBe(503)
          expect(faulted.body).toMatchObject({ success: false, error: { code: 'UNAVAILABLE' } })
          await page.getByRole('button', { name: 'Refresh' }).click()
          await poll(() => page.getByTestId('fault-hits').first().textContent()).toBe('1')
          expect(await page.getByTestId('faults-table').textContent()).toContain('demo rehearsal')
          expect(await shellScrolled(page)).toBe(false)
          await shot(page, 'faults-en-active')

          // From another screen, the badge opens the panel.
          await goToNth(page, 0)
          await badge.click()
          await page.getByRole('heading', { name: 'Fault injection' }).waitFor()

          const ruleId = (await page.locator('[data-fault-id]').first().getAttribute('data-fault-id'))!
          await page.getByRole('button', { name: `Remove rule ${ruleId}` }).click()
          await poll(() => badge.count()).toBe(0)
          await page.getByText('No rule is active').waitFor()
          expect((await listAgents(runtime)).status).toBe(200)
          await shot(page, 'faults-en-removed')
        },
      )
    }, 180_000)

    it('works right to left in Arabic at 1024×640, and the badge follows rules added elsewhere', async () => {
      await openConsole(
        browser!,
        { label: 'voicedesk-e2e-faults-ar', locale: 'ar', viewport: NARROW },
        async () => {},
        async (page, runtime) => {
          await page.locator('.status-bar').waitFor()
          expect(await page.evaluate(() => (globalThis as unknown as { document: { dir: string } }).document.dir)).toBe('rtl')
          await goToNth(page, 7)
          await page.getByRole('heading', { name: 'حقن الأعطال' }).waitFor()
          await page.getByLabel('المسار').fill('/v1/voice-agents')
          await page.getByRole('button', { name: 'أضف القاعدة' }).click()
          const badge = page.getByTestId('fault-badge')
          await poll(() => badge.textContent()).toBe('عطل واحد مفعّل')
          expect(await badgeInView(page)).toBe(true)
          expect((await listAgents(runtime)).status).toBe(503)

          // A rule added over the admin API shows in the badge at once (the faults.changed event).
          const added = await fetch(`${runtime.context.baseUrl()}/_voicedesk/faults`, {
            method: 'POST',
            headers: { authorization: `Token ${runtime.bootstrap.createdKey!}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              match: { jobType: 'TTS' },
              failJob: { code: 'TTS_ENGINE_FAILED', message: 'Injected' },
              expiresInSeconds: 600,
            }),
          })
          expect(added.status).toBe(201)
          await poll(() => badge.textContent()).toMatch(/^أعطال مفعّلة: (2|٢)$/)
          await poll(() => page.locator('[data-fault-id]').count()).toBe(2)
          expect(await latinUiText(page)).toEqual([])
          expect(await shellScrolled(page)).toBe(false)
          await shot(page, 'faults-ar-active')

          await page.getByRole('button', { name: 'إزالة الكل' }).click()
          await poll(() => badge.count()).toBe(0)
          expect((await listAgents(runtime)).status).toBe(200)
          await shot(page, 'faults-ar-cleared')
        },
      )
    }, 180_000)
  },
  STEP_MS * 20,
)
