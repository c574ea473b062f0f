// A real call, made over the web SDK's socket by a Node client, then opened in the jobs monitor
// in Chromium: its recording, its transcript with times and how it ended, in English and in
// Arabic (right to left, no English words of ours left on the Arabic screen).
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRuntime } from '../../src/service/runtime'
import { SdkCallClient } from '../helpers/sdk-call-client'
import { ROOT } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { STEP_MS, collectProblems, launchChromium, poll, shot } from './page-helpers'

let browser: Browser | undefined
beforeAll(async () => {
  browser = await launchChromium()
}, 90_000)
afterAll(async () => {
  await browser?.close()
})

const WORDS = {
  en: { call: 'Call', caller: 'Caller', ended: 'The caller hung up.', type: 'Conversation' },
  ar: { call: 'المكالمة', caller: 'المتصل', ended: 'أنهى المتصل المكالمة.', type: 'محادثة' },
} as const

describe.each(['en', 'ar'] as const)('a conversation in the jobs monitor (%s)', (locale) => {
  it('shows its recording, its transcript and how it ended', async () => {
    const runtime = await createRuntime({
      dataDir: makeTempDir(`voicedesk-e2e-call-${locale}`),
      port: 0,
      rendererDir: join(ROOT, 'out', 'renderer'),
      fixedApiKey: 'vd_e2e_call_0123456789abcdefghij',
    })
    const base = (await runtime.start()).replace('localhost', '127.0.0.1')
    const headers = { authorization: 'Token vd_e2e_call_0123456789abcdefghij', 'content-type': 'application/json' }
    try {
      const agent = (await (
        await fetch(`${base}/v1/voice-agents`, { method: 'POST', headers, body: JSON.stringify({ agentName: 'Front desk', greetingMessage: 'Hello, front desk.' }) })
      ).json()) as { data: { id: string } }
      const init = (await (
        await fetch(`${base}/v1/voice-agents/conversation-init`, { method: 'POST', headers, body: JSON.stringify({ voiceAgentId: agent.data.id }) })
      ).json()) as { data: { jobId: string } }
      const jobId = init.data.jobId
      const client = await SdkCallClient.connect(base, jobId, 'vd_e2e_call_0123456789abcdefghij')
      await client.nth('mark', 1, STEP_MS)
      client.send({ event: 'text', content: 'I need a late checkout' })
      await client.nth('mark', 2, STEP_MS)
      await client.hangUp()

      const context = await browser!.newContext({ viewport: { width: 1024, height: 640 }, locale: locale === 'ar' ? 'ar' : 'en-US' })
      const page = await context.newPage()
      page.setDefaultTimeout(STEP_MS)
      const problems = collectProblems(page)
      await page.addInitScript(
        (value) => (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('voicedesk.locale', value),
        locale,
      )
      await page.goto(`${base}/app/#token=${runtime.uiToken}`)
      // Once the app has taken its token and drawn its first screen, an address pasted in the tab opens the call.
      await page.locator('nav .nav-item').first().waitFor()
      await page.goto(`${base}/app/#/jobs/${jobId}`)
      const section = page.getByRole('region', { name: WORDS[locale].call })
      await section.waitFor()
      await poll(() => section.getByText(WORDS[locale].ended).count()).toBe(1)
      expect(await section.getByText('I need a late checkout').count()).toBe(1)
      expect(await section.getByText(WORDS[locale].caller).count()).toBeGreaterThanOrEqual(1)
      expect(await section.locator('audio').getAttribute('src')).toMatch(/\/media\/.+\.wav$/)
      expect(await page.locator('.job-detail').getByText(WORDS[locale].type).count()).toBeGreaterThanOrEqual(1)
      await shot(page, `monitor-conversation-${locale}`)
      expect(problems).toEqual([])
      await context.close()
    } finally {
      await runtime.stop()
    }
  }, 120_000)
})
