// A console for all day: a failed job is retried from its detail; new jobs wait behind an
// "N new jobs" bar while the operator has scrolled down the list; the agent editor's tools
// switches show the saved agent; a placeholder whose param is empty is flagged; the turn-taking
// settings are typed by keyboard, saved, and refused out of range beside their fields.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTextToSpeechJob } from '../../src/service/ops/jobs'
import { storeWebhook } from '../../src/webhooks/outbox'
import { createVoiceAgent } from '../../src/service/ops/voice-agents'
import type { Runtime } from '../../src/service/runtime'
import { seedJob } from '../helpers/seed-jobs'
import { goToNth, latinUiText, launchChromium, poll, shot, openConsole } from './page-helpers'

const AVA = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'

let browser: Browser | undefined

beforeAll(async () => {
  browser = await launchChromium()
}, 90_000)

afterAll(async () => {
  await browser?.close()
})

interface PageScroller {
  scrollTop: number
  scrollHeight: number
}

function withConsole(
  label: string,
  prepare: (runtime: Runtime) => Promise<void>,
  run: (page: Page, runtime: Runtime) => Promise<void>,
  locale: 'en' | 'ar' = 'en',
) {
  return openConsole(browser!, { label, locale }, prepare, run)
}

describe('the operator console, all day', () => {
  it('retries a FAILED job from its detail: a new job with the same inputs, the failed one left as it was', async () => {
    let failedId = ''
    await withConsole(
      'voicedesk-e2e-retry',
      async (runtime) => {
        failedId = (
          await seedJob(runtime, {
            type: 'TTS',
            status: 'FAILED',
            title: 'Failed greeting',
            text: 'Welcome back.',
            voiceId: AVA,
            errorCode: 'TTS_ENGINE_FAILED',
            errorMessage: 'The engine stopped',
          })
        ).id
      },
      async (page, runtime) => {
        await goToNth(page, 3)
        const table = page.getByRole('table', { name: 'Jobs' })
        await table.getByRole('row', { name: /Failed greeting/ }).click()
        const detail = page.locator('aside.job-detail')
        await detail.getByText('TTS_ENGINE_FAILED').waitFor()
        const retry = detail.getByRole('button', { name: 'Retry' })
        await retry.focus()
        await page.keyboard.press('Enter')
        await page.getByText('A new job was queued with the same inputs.').waitFor()
        // The new job is open, and it runs.
        await poll(() => detail.getByRole('code').first().textContent()).not.toBe(failedId)
        await poll(() => detail.getByTestId('job-detail-status').textContent()).toMatch(/Completed/i)
        await poll(() => table.getByRole('row', { name: /Failed greeting/ }).count()).toBe(2)
        expect(await detail.getByRole('button', { name: 'Retry' }).count()).toBe(0)
        const failed = await runtime.store.jobs.findInProject(failedId, runtime.appCaller.projectId)
        expect(failed).toMatchObject({ status: 'FAILED', errorCode: 'TTS_ENGINE_FAILED' })
        await shot(page, 'job-retried')
      },
    )
  }, 180_000)

  it('holds new jobs behind an "N new jobs" bar while scrolled down; the bar shows them', async () => {
    await withConsole(
      'voicedesk-e2e-new-jobs',
      async (runtime) => {
        const base = Date.parse('2025-01-01T00:00:00.000Z')
        await runtime.store.transaction(async (tx) => {
          for (let index = 0; index < 400; index += 1) {
            const at = new Date(base + index * 1_000).toISOString()
            await seedJob(runtime, { title: `Recording ${String(index).padStart(3, '0')}`, createdAt: at, updatedAt: at }, tx)
          }
        })
      },
      async (page, runtime) => {
        await goToNth(page, 3)
        const table = page.getByRole('table', { name: 'Jobs' })
        await table.getByRole('row', { name: /Recording 399/ }).waitFor()
        const scroller = page.locator('.jobs-scroll')
        await scroller.evaluate((element: PageScroller) => {
          element.scrollTop = element.scrollHeight / 2
        })
        const row200 = page.locator('.jobs-scroll [data-index="200"]')
        await row200.getByText(/Recording 199/).waitFor()

        const caller = runtime.appCaller
        for (const text of ['Fresh one.', 'Fresh two.']) {
          await createTextToSpeechJob(runtime.context, caller, { voiceId: AVA, text })
          // Jobs made in the same millisecond are ordered by id (the contract's tie-break), not by which came first:
          // let the clock move so "Fresh two" is the newer one.
          await new Promise((resolve) => setTimeout(resolve, 5))
        }
        const bar = page.getByRole('button', { name: '2 new jobs: show them' })
        await bar.waitFor()
        // The rows under the pointer stayed where they were.
        expect(await row200.textContent()).toMatch(/Recording 199/)
        await shot(page, 'new-jobs-bar')

        await bar.click()
        await table.getByRole('row', { name: /Fresh two/ }).waitFor()
        await poll(() => scroller.evaluate((element: PageScroller) => element.scrollTop)).toBe(0)
        expect(await page.getByRole('button', { name: /new jobs?:/ }).count()).toBe(0)
        expect(await page.locator('.jobs-scroll [data-index="0"]').textContent()).toMatch(/Fresh two/)

        // At the top, a new job appears at once.
        await createTextToSpeechJob(runtime.context, caller, { voiceId: AVA, text: 'Fresh three.' })
        await table.getByRole('row', { name: /Fresh three/ }).waitFor()
        expect(await page.getByRole('button', { name: /new jobs?:/ }).count()).toBe(0)
      },
    )
  }, 180_000)

  it("shows the agent's saved tools in its switches, when opened and after saving; flags a placeholder with an empty value", async () => {
    await withConsole(
      'voicedesk-e2e-tools',
      async (runtime) => {
        await createVoiceAgent(runtime.context, runtime.appCaller, {
          agentName: 'Tools agent',
          tools: { genderDetection: true },
          greetingMessage: 'Hello {{customer}}, this is {{agentName}}.',
          params: { customer: '  ', agentName: 'Emma' },
        })
      },
      async (page, runtime) => {
        const open = async () => {
          await page.getByRole('button', { name: /^Tools agent/ }).click()
          await page.getByRole('heading', { name: /^Tools agent/, level: 2 }).waitFor()
        }
        const gender = page.getByLabel('Detect the caller’s gender')
        const smartEnd = page.getByLabel('End the call when the conversation is done')
        await open()
        expect([await gender.isChecked(), await smartEnd.isChecked()]).toEqual([true, false])

        // {{customer}} has only spaces: flagged as empty, not filled.
        const chips = page.getByRole('list', { name: 'Placeholders used' }).first()
        expect(await chips.getByRole('listitem').filter({ hasText: '{{customer}}' }).textContent()).toMatch(/empty value$/)
        expect(await chips.getByRole('listitem').filter({ hasText: '{{agentName}}' }).textContent()).toMatch(/has a value/)

        await smartEnd.check()
        await page.keyboard.press('Control+s')
        await page.getByText('Tools agent saved.').first().waitFor()
        await poll(() => page.getByTestId('unsaved-mark').count()).toBe(0)
        expect([await gender.isChecked(), await smartEnd.isChecked()]).toEqual([true, true])
        const [stored] = (await runtime.store.voiceAgents.list(runtime.appCaller.projectId, {}, 10, 0)).records
        expect(stored!.tools).toEqual({ genderDetection: true, smartCallEnd: true })

        await page.reload()
        await open()
        expect([await gender.isChecked(), await smartEnd.isChecked()]).toEqual([true, true])
        await shot(page, 'agent-tools')
      },
    )
  }, 180_000)

  it('edits the turn-taking settings by keyboard: saved, shown after a reload; out of range, refused beside the field and not saved', async () => {
    await withConsole(
      'voicedesk-e2e-turns',
      async (runtime) => {
        await createVoiceAgent(runtime.context, runtime.appCaller, { agentName: 'Turns agent' })
      },
      async (page, runtime) => {
        const open = async () => {
          await page.getByRole('button', { name: /^Turns agent/ }).click()
          await page.getByRole('heading', { name: /^Turns agent/, level: 2 }).waitFor()
        }
        const pause = page.getByLabel('End-of-turn pause (milliseconds)')
        const longest = page.getByLabel('Longest caller turn (seconds)')
        const stored = async () => {
          const [agent] = (await runtime.store.voiceAgents.list(runtime.appCaller.projectId, {}, 10, 0)).records
          return [agent!.endOfTurnSilenceMs, agent!.maxCallerTurnSeconds]
        }
        const isFocused = (field: typeof pause) =>
          field.evaluate(
            (element) => element === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
          )
        const description = (field: typeof pause) =>
          field.evaluate((element: { getAttribute(name: string): string | null }) => {
            const { document } = globalThis as unknown as {
              document: { getElementById(id: string): { textContent: string | null } | null }
            }
            const ids = (element.getAttribute('aria-describedby') ?? '').split(/\s+/).filter(Boolean)
            return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ')
          })
        await open()
        expect([await pause.inputValue(), await longest.inputValue()]).toEqual(['600', '15'])
        expect(await description(pause)).toContain('200 to 5000')

        // Keyboard only: Tab from the silence threshold reaches both fields, typed over, Ctrl+S saves.
        await page.getByLabel('Silence threshold (seconds)').focus()
        for (let presses = 0; presses < 6 && !(await isFocused(pause)); presses++) await page.keyboard.press('Tab')
        expect(await isFocused(pause)).toBe(true)
        await page.keyboard.press('Control+a')
        await page.keyboard.type('1200')
        await page.keyboard.press('Tab')
        expect(await isFocused(longest)).toBe(true)
        await page.keyboard.press('Control+a')
        await page.keyboard.type('40')
        await page.keyboard.press('Control+s')
        await page.getByText('Turns agent saved.').first().waitFor()
        expect(await stored()).toEqual([1200, 40])
        await page.reload()
        await open()
        expect([await pause.inputValue(), await longest.inputValue()]).toEqual(['1200', '40'])

        // Out of range at either end: said beside each field in the API's words, the focus on the first, nothing sent.
        await pause.fill('150')
        await longest.fill('121')
        await page.keyboard.press('Control+s')
        await poll(() => pause.getAttribute('aria-invalid')).toBe('true')
        expect(await longest.getAttribute('aria-invalid')).toBe('true')
        expect(await description(pause)).toContain('Enter 200 or more.')
        expect(await description(longest)).toContain('Enter 120 or less.')
        await poll(() => isFocused(pause)).toBe(true)
        await shot(page, 'agent-turn-taking-refused')
        expect(await stored()).toEqual([1200, 40])
        // Typing again clears the field's refusal; a value in range saves.
        await pause.fill('5000')
        expect(await pause.getAttribute('aria-invalid')).toBeNull()
        await longest.fill('5')
        await page.keyboard.press('Control+s')
        await poll(stored).toEqual([5000, 5])
      },
    )
  }, 180_000)

  it('says it all in Arabic: Retry, the new-jobs bar, an empty placeholder value', async () => {
    await withConsole(
      'voicedesk-e2e-daily-arabic',
      async (runtime) => {
        const base = Date.parse('2025-01-01T00:00:00.000Z')
        await runtime.store.transaction(async (tx) => {
          for (let index = 0; index < 300; index += 1) {
            const at = new Date(base + index * 1_000).toISOString()
            await seedJob(runtime, { title: `Recording ${String(index).padStart(3, '0')}`, createdAt: at, updatedAt: at }, tx)
          }
        })
        await seedJob(runtime, {
          type: 'TTS',
          status: 'FAILED',
          title: 'Failed greeting',
          text: 'Hi.',
          voiceId: AVA,
          errorCode: 'TTS_ENGINE_FAILED',
          errorMessage: 'Stopped',
        })
        await createVoiceAgent(runtime.context, runtime.appCaller, {
          agentName: 'Front desk',
          greetingMessage: 'Hello {{customer}}',
          params: { customer: '' },
        })
      },
      async (page, runtime) => {
        const offenders: Record<string, string[]> = {}
        await page.getByRole('button', { name: /^Front desk/ }).click()
        await page.locator('.chip-missing').filter({ hasText: 'قيمة فارغة' }).waitFor()
        offenders.agent = await latinUiText(page)

        await goToNth(page, 3)
        await page.getByRole('row', { name: /Failed greeting/ }).click()
        await page.locator('aside.job-detail').getByRole('button', { name: 'إعادة المحاولة' }).waitFor()
        const scroller = page.locator('.jobs-scroll')
        await scroller.evaluate((element: PageScroller) => {
          element.scrollTop = element.scrollHeight / 2
        })
        await page
          .locator('.jobs-scroll [data-index="150"]')
          .getByText(/Recording/)
          .waitFor()
        await createTextToSpeechJob(runtime.context, runtime.appCaller, { voiceId: AVA, text: 'Fresh one.' })
        await createTextToSpeechJob(runtime.context, runtime.appCaller, { voiceId: AVA, text: 'Fresh two.' })
        await page
          .locator('.new-jobs-bar')
          .getByRole('button', { name: /\(2\)|\(٢\)/ })
          .waitFor()
        offenders.jobs = (await latinUiText(page)).filter((text) => !/^(Recording \d+|Failed greeting|Hi\.|Stopped)$/.test(text))
        await shot(page, 'arabic-retry-and-new-jobs')
        expect(offenders).toEqual({ agent: [], jobs: [] })
      },
      'ar',
    )
  }, 180_000)

  it('deep links: every agent, job and delivery has a hash route that opens it; the back button walks them', async () => {
    let jobId = ''
    let agentId = ''
    let deliveryId = ''
    await withConsole(
      'voicedesk-e2e-deep-links',
      async (runtime) => {
        jobId = (await seedJob(runtime, { title: 'Linked recording' })).id
        agentId = (await createVoiceAgent(runtime.context, runtime.appCaller, { agentName: 'Linked agent' })).id
        deliveryId = await runtime.store.transaction((tx) =>
          storeWebhook(
            tx,
            { projectId: runtime.appCaller.projectId, url: 'http://192.0.2.1:9/hook', authKey: null, authSecret: null },
            'job.completed',
            { event: 'job.completed' },
            { jobId, now: new Date() },
          ),
        )
      },
      async (page) => {
        const hash = () => page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)
        const jobTitle = page.locator('aside.job-detail h2')
        // Moving in the UI writes the route.
        await goToNth(page, 3)
        await poll(hash).toBe('#/jobs')
        await page.getByRole('row', { name: /Linked recording/ }).click()
        await poll(hash).toBe(`#/jobs/${jobId}`)
        await goToNth(page, 0)
        await page.getByRole('button', { name: /^Linked agent/ }).click()
        await poll(hash).toBe(`#/agents/${agentId}`)

        // Back: the job again, then the jobs list without it.
        await page.goBack()
        await poll(hash).toBe('#/agents')
        await page.goBack()
        await poll(hash).toBe(`#/jobs/${jobId}`)
        await poll(() => jobTitle.textContent()).toBe('Linked recording')
        await page.goBack()
        await poll(hash).toBe('#/jobs')
        await poll(() => jobTitle.count()).toBe(0)

        // An address typed or pasted (the token stays in this tab's session).
        await page.goto(page.url().replace(/#.*$/, `#/webhooks/${deliveryId}`))
        await page.locator('aside.detail-pane').getByText(deliveryId).first().waitFor()
        await page.goto(page.url().replace(/#.*$/, `#/agents/${agentId}`))
        await page.reload()
        await page.getByRole('heading', { name: /^Linked agent/, level: 2 }).waitFor()
        await page.goto(page.url().replace(/#.*$/, `#/jobs/${jobId}`))
        await poll(() => jobTitle.textContent()).toBe('Linked recording')
      },
    )
  }, 180_000)
})
