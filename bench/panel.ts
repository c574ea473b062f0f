/**
 * The Test call panel, measured in the page: from a typed caller turn (the `text` frame sent) to
 * the first audio of the agent's answer scheduled for playback, with performance.now in Chromium
 * (the panel records each in its `data-reply-ms`). A real `voicedesk serve` process, the offline
 * dialogue engine, the browser carrier of the stream (a WebSocket); the agent's shape has more
 * fields than the turns fill, so every turn gets an answer. Calls that end are called again.
 * Part of `npm run bench` (bench/run.ts); alone: `npx tsx bench/run.ts panel`.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Page } from 'playwright-core'
import { percentile } from './jobs'
import { freePort, stopChild, waitForLine } from './processes'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const BIN = join(ROOT, 'bin/voicedesk.js')
const KEY = 'vd_bench_panel_0123456789abcdef0123456'
const CHROMIUM = process.env.VOICEDESK_CHROMIUM ?? '/usr/bin/chromium'
const TURNS = 20
const CALLER_TURNS = [
  'My name is Sara Haddad',
  'We are four people',
  'On the terrace please',
  'Next Friday',
  'At eight in the evening',
  'No allergies',
  'Thank you',
]

export interface PanelBenchResult {
  typedTurnToFirstAudioMs: { p50: number; p99: number; turns: number; note: string }
}

const round = (value: number) => Math.round(value * 10) / 10

const repliesOf = async (page: Page): Promise<number[]> =>
  ((await page.locator('.test-call').getAttribute('data-reply-ms')) ?? '').split(',').filter(Boolean).map(Number)

export async function benchPanel(): Promise<PanelBenchResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-panel-'))
  const port = await freePort()
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), '--data-dir', dataDir], {
    cwd: ROOT,
    env: { ...process.env, VOICEDESK_API_KEY: KEY },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'],
  })
  try {
    const link = (await waitForLine(child, /^Operator UI: (\S+)$/m))[1]!
    const base = `http://127.0.0.1:${port}`
    const created = await fetch(`${base}/v1/voice-agents`, {
      method: 'POST',
      headers: { authorization: `Token ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        agentName: 'Panel bench',
        lang: 'en',
        greetingMessage: 'Hello, thanks for calling.',
        outcomeResponseShape: {
          type: 'object',
          properties: {
            customerName: { type: 'string' },
            guests: { type: 'integer' },
            seating: { type: 'string' },
            date: { type: 'string' },
            time: { type: 'string' },
            notes: { type: 'string', description: 'Anything else' },
          },
          required: ['customerName', 'guests', 'seating', 'date', 'time', 'notes'],
        },
        silenceThreshold: 60,
        interrupt: false,
      }),
    })
    const agentId = ((await created.json()) as { data: { id: string } }).data.id
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } })
    page.setDefaultTimeout(30_000)
    await page.goto(link)
    await page.locator('.item-list').waitFor()
    await page.evaluate((id) => ((globalThis as unknown as { location: { hash: string } }).location.hash = `#/agents/${id}`), agentId)
    await page.getByTestId('agent-tab-test').click()
    await page.getByTestId('test-call-type').click()

    const latencies: number[] = []
    let turn = 0
    while (latencies.length < TURNS) {
      // Each turn after the agent is done speaking and listens again (its greeting or last answer).
      await page.waitForFunction(() => {
        const g = globalThis as unknown as {
          document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null }
        }
        const state = g.document.querySelector('[data-testid="test-call-activity"]')?.getAttribute('data-activity')
        return state === 'listening' || state === 'ended' || state === 'failed'
      })
      if ((await page.getByTestId('test-call-activity').getAttribute('data-activity')) !== 'listening') {
        latencies.push(...(await repliesOf(page)))
        await page.getByTestId('test-call-again').click()
        continue
      }
      const before = (await repliesOf(page)).length
      await page.getByTestId('test-call-input').fill(CALLER_TURNS[turn % CALLER_TURNS.length]!)
      await page.getByTestId('test-call-input').press('Enter')
      turn += 1
      await page.waitForFunction((count) => {
        const g = globalThis as unknown as {
          document: { querySelector(selector: string): { getAttribute(name: string): string | null } | null }
        }
        const replies = (g.document.querySelector('.test-call')?.getAttribute('data-reply-ms') ?? '').split(',').filter(Boolean).length
        const state = g.document.querySelector('[data-testid="test-call-activity"]')?.getAttribute('data-activity')
        return replies > count || state === 'ended'
      }, before)
      if (latencies.length + (await repliesOf(page)).length >= TURNS) break
    }
    latencies.push(...(await repliesOf(page)))
    const measured = latencies.slice(0, TURNS)
    return {
      typedTurnToFirstAudioMs: {
        p50: round(percentile(measured, 50)),
        p99: round(percentile(measured, 99)),
        turns: measured.length,
        note: 'in Chromium, performance.now from the text frame sent to the first audio frame of the answer scheduled on the AudioContext; offline dialogue engine, browser carrier (WebSocket), voicedesk serve on the same machine',
      },
    }
  } finally {
    await browser.close()
    await stopChild(child)
    rmSync(dataDir, { recursive: true, force: true })
  }
}
