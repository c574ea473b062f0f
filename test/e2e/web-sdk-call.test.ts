import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeWavPcm16Mono } from '../../src/engines/tts/wav-encoding'
import { STT_SETTING_KEY } from '../../src/service/settings/stt-settings'
import { CALLER_VOICES, spokenSamples } from '../helpers/spoken-audio'
import { makeTempDir } from '../helpers/temp-dir'
import { startTestService, type TestService } from '../helpers/test-service'
import { collectProblems, launchChromium, shot, STEP_MS } from './page-helpers'

/*
 * The cloud API's own web SDK (0.3.1, unchanged, its UMD build) in a page on another origin,
 * pointed at VoiceDesk, with Chromium's fake microphone playing a WAV of a caller made by the
 * project's voice. Speech recognition is a server outside this machine in real use; here it is a
 * loopback double that answers what the WAV says.
 */

// The package's exports map hides dist/: its UMD build sits beside the resolved entry.
const SDK = join(dirname(createRequire(import.meta.url).resolve('@hamsa-ai/voice-agents-sdk')), 'index.umd.js')
const CALLER_SAYS = 'My name is Sara Haddad'

let browser: Browser
let page_server: Server
let stt_server: Server
let service: TestService
let pageOrigin: string
let sttUrl: string
const sttRequests: number[] = []

beforeAll(async () => {
  // The fake microphone: a second of quiet, the caller, then quiet (Chromium loops the file).
  const speech = await spokenSamples(`${CALLER_SAYS}.`, CALLER_VOICES.en)
  const pcm = Buffer.alloc((16_000 * 1 + speech.length + 16_000 * 6) * 2)
  speech.forEach((sample, index) => pcm.writeInt16LE(Math.round(sample * 32_767), (16_000 + index) * 2))
  const microphone = join(makeTempDir(), 'caller.wav')
  writeFileSync(microphone, encodeWavPcm16Mono(pcm, 16_000))

  page_server = createServer((request, response) => {
    if (request.url === '/sdk.js') {
      response.setHeader('content-type', 'text/javascript')
      response.end(readFileSync(SDK))
      return
    }
    response.setHeader('content-type', 'text/html')
    response.end('<!doctype html><meta charset="utf-8"><title>SDK page</title><script src="/sdk.js"></script><body>SDK page</body>')
  })
  await new Promise<void>((resolve) => page_server.listen(0, '127.0.0.1', resolve))
  pageOrigin = `http://127.0.0.1:${(page_server.address() as AddressInfo).port}`

  stt_server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      sttRequests.push(Date.now())
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ text: sttRequests.length === 1 ? CALLER_SAYS : '' }))
    })
  })
  await new Promise<void>((resolve) => stt_server.listen(0, '127.0.0.1', resolve))
  sttUrl = `http://127.0.0.1:${(stt_server.address() as AddressInfo).port}/v1`

  browser = await launchChromium({ microphoneWav: microphone })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await new Promise((resolve) => page_server?.close(resolve))
  await new Promise((resolve) => stt_server?.close(resolve))
})

describe('the web SDK 0.3.1 in Chromium, pointed at VoiceDesk', () => {
  it('runs a call end to end: greeting heard, the caller recognised, the call ended and read back', async () => {
    service = await startTestService({ port: 0 })
    const base = (await service.runtime.start()).replace('localhost', '127.0.0.1')
    await service.runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: sttUrl })
    const created = await service.call('POST', '/v1/voice-agents', {
      body: {
        agentName: 'Olive Grove',
        lang: 'en',
        greetingMessage: 'Hello {{customerName}}, welcome to Olive Grove.',
        params: { customerName: 'guest' },
        outcome: 'The booking',
        outcomeResponseShape: {
          type: 'object',
          properties: { customerName: { type: 'string' }, guests: { type: 'integer' } },
          required: ['customerName', 'guests'],
        },
        silenceThreshold: 30,
      },
    })
    const agentId = created.json<{ data: { id: string } }>().data.id
    const page = await browser.newPage()
    const problems = collectProblems(page, [/AudioContext|Wake Lock|wakeLock/i])
    await page.goto(`${pageOrigin}/`)
    await page.evaluate(
      ({ key, base, agentId }) => {
        const g = globalThis as unknown as {
          HamsaVoiceAgent: new (
            key: string,
            config: { API_URL: string; WS_URL: string },
          ) => {
            on(event: string, listener: (value?: unknown) => void): void
            start(options: Record<string, unknown>): Promise<void>
          }
          events: { event: string; value?: unknown; at: number }[]
          agent: unknown
        }
        g.events = []
        const agent = new g.HamsaVoiceAgent(key, { API_URL: base, WS_URL: `${base.replace('http', 'ws')}/stream` })
        for (const event of [
          'callStarted',
          'callEnded',
          'speaking',
          'listening',
          'transcriptionReceived',
          'answerReceived',
          'closed',
          'error',
          'info',
        ]) {
          agent.on(event, (value) => g.events.push({ event, value: value instanceof Error ? value.message : value, at: Date.now() }))
        }
        g.agent = agent
        void agent.start({ agentId, params: { customerName: 'Sara' }, voiceEnablement: true })
      },
      { key: service.key, base, agentId },
    )
    type Seen = { event: string; value?: unknown; at: number }[]
    const events = () => page.evaluate(() => (globalThis as unknown as { events: Seen }).events)
    await expect
      .poll(async () => (await events()).filter((seen) => seen.event === 'answerReceived').map((seen) => seen.value), { timeout: STEP_MS })
      .toContain('Hello Sara, welcome to Olive Grove.')
    await expect.poll(async () => (await events()).some((seen) => seen.event === 'speaking'), { timeout: STEP_MS }).toBe(true)
    await expect
      .poll(async () => (await events()).filter((seen) => seen.event === 'transcriptionReceived').map((seen) => seen.value), {
        timeout: STEP_MS,
      })
      .toContain(CALLER_SAYS)
    // The agent answers the caller with its next question.
    await expect
      .poll(async () => (await events()).filter((seen) => seen.event === 'answerReceived').length, { timeout: STEP_MS })
      .toBeGreaterThanOrEqual(2)
    await shot(page, 'web-sdk-call')
    const speakingFlips = (await events()).filter((seen) => seen.event === 'speaking').length
    const details = await page.evaluate(async () => {
      const agent = (globalThis as unknown as { agent: { end(): void; getJobDetails(): Promise<unknown> } }).agent
      agent.end()
      return agent.getJobDetails()
    })
    expect(details).toMatchObject({ status: 'COMPLETED', endReason: 'caller-hangup', agentName: 'Olive Grove' })
    const transcript = (details as { transcript: { role: string; content: string }[] }).transcript
    // The greeting; the fake microphone may talk over it on a busy machine, and then the turn keeps the words played.
    const greeting = 'Hello Sara, welcome to Olive Grove.'
    const first = transcript[0] as { role: string; content: string; interrupted?: boolean }
    expect(first.role).toBe('agent')
    if (first.interrupted === true) expect(first.content.length > 0 && greeting.startsWith(first.content), first.content).toBe(true)
    else expect(first.content).toMatch(/^Hello Sara, welcome to Olive Grove\./)
    expect(transcript).toContainEqual(expect.objectContaining({ role: 'caller', content: CALLER_SAYS }))
    const seen = await events()
    expect(seen.filter((entry) => entry.event === 'error')).toEqual([])
    // Audio sent ahead of real time: the SDK does not flip between speaking and listening within a sentence.
    expect(speakingFlips).toBeLessThanOrEqual(4)
    expect(problems).toEqual([])
  }, 180_000)
})
