// A real call, made over the web SDK's socket by a Node client typing the caller's turns, against
// `voicedesk serve`, then opened in the jobs monitor in Chromium: the list row at a glance (agent,
// duration, ending, outcome), the recording on a timeline of turns that seeks the audio (click and
// Enter), a transcript that seeks too, the outcome JSON as stored, and the call's webhooks with
// their attempts, updated live when one is retried. In English and in Arabic (right to left, no
// English words of ours left), at 1024×640 (the shell never scrolls) and 2560×1440. A running call's
// open detail grows turn by turn (a job.changed event for every written turn).
// The agent's webhook receiver is a loopback HTTP server standing for the customer's.
// A phone call dialled by SIPp over the SIP line is listed beside a web call: SIP and Web badges,
// its direction and both numbers on the row and in the detail.
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ConversationState } from '../../src/shared/api/conversations'
import type { OutcomeShape } from '../../src/shared/api/outcome-shape'
import { SdkCallClient } from '../helpers/sdk-call-client'
import { callerRtpSocket, runSipp } from '../helpers/sipp'
import { startServe } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { startWebhookReceiver } from '../helpers/webhook-receiver'
import { STEP_MS, collectProblems, latinUiText, launchChromium, poll, shot, shellOffsets, SHELL_AT_REST } from './page-helpers'

let browser: Browser | undefined
beforeAll(async () => {
  browser = await launchChromium()
}, 90_000)
afterAll(async () => {
  await browser?.close()
})

const KEY = 'vd_e2e_call_0123456789abcdefghij'

/** Seating is required too, and never said: the caller hangs up on a partial outcome. */
const BOOKING_SHAPE: OutcomeShape = {
  type: 'object',
  properties: {
    customerName: { type: 'string', description: 'The name the table is booked under' },
    guests: { type: 'integer', description: 'How many people are coming' },
    seating: { type: 'string', enum: ['indoor', 'terrace'], description: 'Where they would like to sit' },
  },
  required: ['customerName', 'guests', 'seating'],
}

const WORDS = {
  en: {
    ended: 'caller hung up',
    partial: 'Partial',
    call: 'Call',
    webhooks: 'Webhooks sent',
    attempts2: '2 attempts',
    attempts1: '1 attempt',
  },
  ar: {
    ended: 'أنهاها المتصل',
    partial: 'جزئية',
    call: 'المكالمة',
    webhooks: 'الويب هوك المرسلة',
    attempts2: 'محاولتان',
    attempts1: 'محاولة واحدة',
  },
} as const

interface StoredJob {
  id: string
  usageTime: string | null
  mediaUrl: string | null
  jobResponse: ConversationState
}

const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`

/** The audio element's playing position. */
function audioTime(page: Page): Promise<number> {
  return page.locator('.conversation audio').evaluate((element) => (element as unknown as { currentTime: number }).currentTime)
}

function pause(page: Page): Promise<void> {
  return page.locator('.conversation audio').evaluate((element) => (element as unknown as { pause(): void }).pause())
}

describe('a conversation in the jobs monitor', () => {
  it('lists it at a glance and shows its timeline, transcript, outcome and webhooks (English, Arabic, 1024×640, 2560×1440)', async () => {
    const receiver = await startWebhookReceiver()
    // The first call.ended is refused once: its retry shows up in the open page (delivery.attempted).
    let refused = false
    receiver.answer((_index, request) => {
      if (!refused && request.body.includes('"eventType":"call.ended"')) {
        refused = true
        return { status: 503 }
      }
      return { status: 204 }
    })
    const server = await startServe(makeTempDir('voicedesk-e2e-call'), ['--port', '0'], { env: { VOICEDESK_API_KEY: KEY } })
    const base = server.url.replace('localhost', '127.0.0.1')
    const uiUrl = /^Operator UI: (\S+)$/m.exec(server.cli.stdout())![1]!.replace('localhost', '127.0.0.1')
    const headers = { authorization: `Token ${KEY}`, 'content-type': 'application/json' }
    const agent = (await (
      await fetch(`${base}/v1/voice-agents`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          agentName: 'Table Booker',
          lang: 'en',
          greetingMessage: 'Hello, thanks for calling Olive Grove.',
          preamble: 'You book tables at Olive Grove.',
          outcome: 'The booking',
          outcomeResponseShape: BOOKING_SHAPE,
          webhookUrl: `${receiver.url}/calls`,
        }),
      })
    ).json()) as { data: { id: string } }
    const init = (await (
      await fetch(`${base}/v1/voice-agents/conversation-init`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ voiceAgentId: agent.data.id }),
      })
    ).json()) as {
      data: { jobId: string }
    }
    const jobId = init.data.jobId
    const client = await SdkCallClient.connect(base, jobId, KEY)
    await client.nth('mark', 1, STEP_MS)
    client.send({ event: 'text', content: 'My name is Sara Haddad' })
    await client.nth('mark', 2, STEP_MS)
    client.send({ event: 'text', content: 'We are four people' })
    await client.nth('mark', 3, STEP_MS)
    await client.hangUp()

    // The job as /v1 stores it, once ended: what the monitor must show.
    let job: StoredJob | undefined
    await poll(async () => {
      const read = (await (await fetch(`${base}/v1/jobs?jobId=${jobId}`, { headers })).json()) as { data: StoredJob & { status: string } }
      job = read.data
      return read.data.status
    }).toBe('COMPLETED')
    const call = job!.jobResponse
    expect(call.outcomeComplete).toBe(false)
    expect(call.outcomeResult).toMatchObject({ customerName: 'Sara Haddad', guests: 4 })
    const callerTurns = call.transcript.flatMap((turn, index) => (turn.role === 'caller' ? [{ turn, index }] : []))
    expect(callerTurns.length).toBe(2)
    // Every event of the call reached the receiver, the refused call.ended twice.
    const callEvents = () =>
      receiver.requests
        .map((request) => JSON.parse(request.body) as { eventType: string; callId: string })
        .filter((event) => event.callId === jobId)
    await poll(() => callEvents().filter((event) => event.eventType === 'call.ended').length).toBe(2)
    const deliveries = new Set(receiver.requests.map((request) => request.headers['webhook-id'])).size
    expect(callEvents().map((event) => event.eventType)).toEqual(
      expect.arrayContaining(['call.started', 'transcription.update', 'call.ended']),
    )

    try {
      for (const [locale, viewport] of [
        ['en', { width: 1024, height: 640 }],
        ['ar', { width: 1024, height: 640 }],
        ['en', { width: 2560, height: 1440 }],
      ] as const) {
        const words = WORDS[locale]
        const label = `${locale}-${viewport.width}`
        const context = await browser!.newContext({ viewport, locale: locale === 'ar' ? 'ar' : 'en-US' })
        const page = await context.newPage()
        page.setDefaultTimeout(STEP_MS)
        const problems = collectProblems(page)
        await page.addInitScript(
          (value) =>
            (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem(
              'voicedesk.locale',
              value,
            ),
          locale,
        )
        await page.goto(uiUrl)
        await page.locator('nav .nav-item').first().waitFor()
        await page.goto(`${base}/app/#/jobs`)

        // The row at a glance: agent, duration, ending, outcome and its first fields.
        const glance = page.getByTestId('call-glance')
        await glance.waitFor()
        expect(await glance.locator('.glance-agent').textContent()).toBe('Table Booker')
        expect(await glance.getByTestId('call-duration').textContent()).toBe(clock(Number(job!.usageTime)))
        expect(await glance.getByTestId('call-end').textContent()).toBe(words.ended)
        const outcome = glance.getByTestId('call-outcome')
        expect(await outcome.locator('.outcome-badge').textContent()).toBe(words.partial)
        expect(await outcome.locator('.glance-field').allTextContents()).toEqual(['customerName: Sara Haddad', 'guests: 4'])

        // The detail: one block per turn on the timeline.
        await glance.click()
        const section = page.getByRole('region', { name: words.call, exact: true })
        await section.waitFor()
        const blocks = section.locator('.turn-block')
        expect(await blocks.count()).toBe(call.transcript.length)
        expect(await section.locator('.turn-block.caller').count()).toBe(2)

        // A click on the second caller turn plays the recording from its start.
        const second = callerTurns[1]!
        await section.locator('.turn-block.caller').nth(1).click()
        const afterClick = await audioTime(page)
        expect(afterClick).toBeGreaterThanOrEqual(second.turn.startTime - 0.05)
        expect(afterClick).toBeLessThan(second.turn.startTime + 2)
        // Paused there, the timeline shows where it plays.
        await pause(page)
        const pausedAt = await audioTime(page)
        await poll(() => section.getByTestId('playing-at').textContent()).toContain(clock(pausedAt))
        // Enter on the first caller turn (reached by the keyboard) does the same.
        const first = callerTurns[0]!
        await section.locator('.turn-block.caller').first().focus()
        await page.keyboard.press('Enter')
        await poll(async () => Math.abs((await audioTime(page)) - first.turn.startTime) < 2).toBe(true)
        expect(await audioTime(page)).toBeGreaterThanOrEqual(first.turn.startTime - 0.05)
        // A line of the transcript seeks too.
        await section.locator('button.transcript-line').nth(second.index).click()
        expect(await audioTime(page)).toBeGreaterThanOrEqual(second.turn.startTime - 0.05)
        await pause(page)

        // The outcome JSON is the job's.
        expect(JSON.parse((await section.getByTestId('outcome-json').textContent()) ?? '')).toEqual(call.outcomeResult)
        expect(await section.locator('.outcome-problems li').count()).toBeGreaterThanOrEqual(1)

        // The call's webhooks, with their attempts, each a link to its delivery; the refused call.ended shows its retry.
        const webhooks = page.getByRole('region', { name: words.webhooks })
        const rows = webhooks.locator('.delivery-row')
        await poll(() => rows.count()).toBe(deliveries)
        const ended = rows.filter({ has: page.locator('code', { hasText: /^call\.ended$/ }) })
        await poll(() => ended.getByTestId('delivery-attempts').textContent()).toBe(words.attempts2)
        expect(
          await rows
            .filter({ has: page.locator('code', { hasText: /^call\.started$/ }) })
            .getByTestId('delivery-attempts')
            .textContent(),
        ).toBe(words.attempts1)
        expect(await ended.locator('a').getAttribute('href')).toMatch(/^#\/webhooks\/[A-Za-z0-9_-]+$/)

        if (locale === 'ar') {
          expect(await page.locator('html').getAttribute('dir')).toBe('rtl')
          // Right to left: the call's start is at the track's right end, later turns further left.
          const agentBlocks = section.locator('.turn-block.agent')
          const [track, firstBlock, lastBlock] = await Promise.all([
            section.locator('.lane-agent').boundingBox(),
            agentBlocks.first().boundingBox(),
            agentBlocks.last().boundingBox(),
          ])
          expect(lastBlock!.x).toBeLessThan(firstBlock!.x)
          expect(track!.x + track!.width - (firstBlock!.x + firstBlock!.width)).toBeLessThan(firstBlock!.x - track!.x)
          expect(await latinUiText(page)).toEqual([])
        }
        if (viewport.width === 1024) {
          for (const pane of ['.jobs-scroll', '.detail-pane', '.jobs-main']) {
            const box = await page.locator(pane).first().boundingBox()
            if (!box) continue
            await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 200))
            await page.mouse.wheel(0, 4_000)
            await page.mouse.wheel(4_000, 0)
            await page.mouse.wheel(-8_000, 0)
          }
          await page.waitForTimeout(150)
          expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)
          await section.scrollIntoViewIfNeeded()
        }
        await shot(page, `monitor-conversation-${label}`)
        // A delivery's link opens it in the journal.
        await ended.locator('a').click()
        await poll(() => page.url()).toMatch(/#\/webhooks\/[A-Za-z0-9_-]+$/)
        expect(problems).toEqual([])
        await context.close()
      }
    } finally {
      client.close()
      server.cli.child.kill('SIGTERM')
      await server.cli.waitForExit(15_000).catch(() => undefined)
    }
  }, 240_000)

  it('lists a phone call over the SIP line beside a web call: channel, direction and both numbers (1024×640)', async () => {
    const server = await startServe(makeTempDir('voicedesk-e2e-sip-call'), ['--port', '0', '--sip-port', '0'], {
      env: { VOICEDESK_API_KEY: KEY },
    })
    const sipPort = Number(/sip:<number>@127\.0\.0\.1:(\d+)$/m.exec(server.cli.stdout())?.[1])
    const base = server.url.replace('localhost', '127.0.0.1')
    const uiUrl = /^Operator UI: (\S+)$/m.exec(server.cli.stdout())![1]!.replace('localhost', '127.0.0.1')
    const headers = { authorization: `Token ${KEY}`, 'content-type': 'application/json' }
    const post = async (path: string, body: unknown) => {
      const response = await fetch(`${base}/v1${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
      return ((await response.json()) as { data: Record<string, string> }).data
    }
    const context = await browser!.newContext({ viewport: { width: 1024, height: 640 } })
    try {
      const agent = await post('/voice-agents', {
        agentName: 'Phone Desk',
        lang: 'en',
        greetingMessage: 'Hello, Phone Desk.',
        preamble: 'Greet.',
      })
      await post('/voice-agents/phone-number', {
        type: 'TELEPHONY',
        phoneNumber: '+15551230001',
        label: 'Desk',
        providerAccountSid: 'AC1',
        providerAuthToken: 'none',
      })
      await post('/voice-agents/assign-number', { voiceAgentId: agent.id, phoneNumber: '+15551230001' })
      // A web call, never connected: it waits beside the phone call.
      await post('/voice-agents/conversation-init', { voiceAgentId: agent.id })
      const phone = await callerRtpSocket()
      const sipp = await runSipp('greeting.xml', { port: sipPort, number: '15551230001', vars: { rtp_port: phone.port }, pauseMs: 2_000 })
      expect(sipp.code, sipp.stdout + sipp.errors).toBe(0)

      const page = await context.newPage()
      const problems = collectProblems(page)
      await page.goto(uiUrl)
      await page.locator('nav .nav-item').nth(3).click()
      const phoneRow = page.getByRole('row').filter({ has: page.getByTestId('call-numbers') })
      const webRow = page.getByRole('row').filter({ has: page.getByTestId('call-channel').getByText('Web', { exact: true }) })
      await poll(() => phoneRow.getByTestId('call-channel').textContent()).toBe('SIP')
      await poll(() => webRow.count()).toBe(1)
      expect(await phoneRow.getByTestId('call-numbers').textContent()).toBe('+15550009999 → +15551230001')
      await poll(() => phoneRow.getByTestId('call-outcome').textContent()).toContain('Inbound')
      await phoneRow.click()
      const facts = page.getByTestId('call-channel-facts')
      await poll(() => facts.textContent()).toContain('Inbound')
      expect(await facts.getByTestId('call-from').textContent()).toBe('+15550009999')
      expect(await facts.getByTestId('call-to').textContent()).toBe('+15551230001')
      expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)
      await shot(page, 'monitor-sip-call')
      expect(problems).toEqual([])
      // In Arabic: the same row and detail, right to left, the numbers still read left to right, no English of ours.
      await page.evaluate(() =>
        (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('voicedesk.locale', 'ar'),
      )
      await page.reload()
      await poll(() => page.getByTestId('call-channel-facts').textContent()).toContain('واردة')
      expect(await phoneRow.getByTestId('call-numbers').textContent()).toBe('+15550009999 → +15551230001')
      expect(await latinUiText(page)).toEqual([])
      await shot(page, 'monitor-sip-call-ar')
    } finally {
      await context.close()
      server.cli.child.kill('SIGTERM')
      await server.cli.waitForExit(15_000).catch(() => undefined)
    }
  }, 120_000)

  it("grows a running call's transcript in its open detail, turn by turn", async () => {
    const server = await startServe(makeTempDir('voicedesk-e2e-live-call'), ['--port', '0'], { env: { VOICEDESK_API_KEY: KEY } })
    const base = server.url.replace('localhost', '127.0.0.1')
    const uiUrl = /^Operator UI: (\S+)$/m.exec(server.cli.stdout())![1]!.replace('localhost', '127.0.0.1')
    const headers = { authorization: `Token ${KEY}`, 'content-type': 'application/json' }
    const body = {
      agentName: 'Live Booker',
      lang: 'en',
      greetingMessage: 'Hello, Olive Grove.',
      preamble: 'You book tables.',
      outcome: 'The booking',
      outcomeResponseShape: BOOKING_SHAPE,
    }
    const agent = (await (await fetch(`${base}/v1/voice-agents`, { method: 'POST', headers, body: JSON.stringify(body) })).json()) as {
      data: { id: string }
    }
    const init = (await (
      await fetch(`${base}/v1/voice-agents/conversation-init`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ voiceAgentId: agent.data.id }),
      })
    ).json()) as {
      data: { jobId: string }
    }
    const client = await SdkCallClient.connect(base, init.data.jobId, KEY)
    const context = await browser!.newContext({ viewport: { width: 1280, height: 800 } })
    try {
      const page = await context.newPage()
      await page.goto(uiUrl)
      await page.locator('nav .nav-item').first().waitFor()
      await client.nth('mark', 1, STEP_MS)
      await page.goto(`${base}/app/#/jobs/${init.data.jobId}`)
      const lines = page.locator('.conversation .transcript-line.caller')
      await page.locator('.conversation').waitFor()
      client.send({ event: 'text', content: 'My name is Sara Haddad' })
      await poll(() => lines.allTextContents(), 10_000).toEqual([expect.stringContaining('My name is Sara Haddad')])
      await client.nth('mark', 2, STEP_MS)
      client.send({ event: 'text', content: 'We are four people' })
      await poll(() => lines.count(), 10_000).toBe(2)
      await client.hangUp()
    } finally {
      await context.close()
      client.close()
      server.cli.child.kill('SIGTERM')
      await server.cli.waitForExit(15_000).catch(() => undefined)
    }
  }, 120_000)
})
