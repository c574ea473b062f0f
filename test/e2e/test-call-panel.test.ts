// The Test call panel in Chromium against a real `voicedesk serve` process: a typed call that fills
// a template agent's outcome and ends by itself (smartCallEnd), then shows in the monitor; a spoken
// call through Chromium's fake microphone, fed a WAV made by VoiceDesk's own voice; the panel in
// Arabic with no English on it, with the microphone refused, and at 1024×640 after wheel events
// (the shell never scrolls). Speech recognition is a server outside this machine in real use; here
// it is a loopback double that answers what the WAV says. The dialogue is the offline engine.
import { writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { encodeWavPcm16Mono } from '../../src/engines/tts/wav-encoding'
import { startServe, type RunningServe } from '../helpers/spawn-cli'
import { CALLER_VOICES, spokenSamples } from '../helpers/spoken-audio'
import { makeTempDir } from '../helpers/temp-dir'
import { STEP_MS, collectProblems, latinUiText, launchChromium, poll, shot, shellOffsets, SHELL_AT_REST } from './page-helpers'
import { startWeatherModelDouble } from '../helpers/weather-model-double'

const API_KEY = 'vd_test_call_panel_key_0123456789abcdef'
const CALLER_SAYS = 'My name is Sara Haddad'

let microphoneBrowser: Browser | undefined
let plainBrowser: Browser | undefined
let server: RunningServe | undefined
let sttServer: Server | undefined
let sttUrl = ''
let uiLink = ''
let microphoneWav: Buffer
const sttAnswers: string[] = []

async function v1<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${server!.url}${path}`, {
    method,
    headers: { authorization: `Token ${API_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
  return (JSON.parse(text) as { data: T }).data
}

/** A copy of one of the bundled templates, as an operator makes one. */
async function cloneTemplate(templateName: string, agentName: string): Promise<string> {
  const templates = await v1<{ id: string; agentName: string }[]>('GET', '/v1/voice-agents/templates')
  const template = templates.find((candidate) => candidate.agentName === templateName)
  if (!template) throw new Error(`No template ${templateName} among ${templates.map((candidate) => candidate.agentName).join(', ')}`)
  return (await v1<{ id: string }>('POST', `/v1/voice-agents/clone?voiceAgentId=${template.id}`, { agentName })).id
}

beforeAll(async () => {
  // The fake microphone: a second of quiet, the caller, then quiet (Chromium loops the file).
  const speech = await spokenSamples(`${CALLER_SAYS}.`, CALLER_VOICES.en)
  const pcm = Buffer.alloc((16_000 + speech.length + 16_000 * 6) * 2)
  speech.forEach((sample, index) => pcm.writeInt16LE(Math.round(sample * 32_767), (16_000 + index) * 2))
  microphoneWav = encodeWavPcm16Mono(pcm, 16_000)

  // The speech-recognition double: the caller's words for the first upload, nothing after (the WAV loops).
  sttServer = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      const text = sttAnswers.length === 0 ? CALLER_SAYS : ''
      sttAnswers.push(text)
      response.setHeader('content-type', 'application/json')
      response.end(JSON.stringify({ text }))
    })
  })
  await new Promise<void>((resolve) => sttServer!.listen(0, '127.0.0.1', resolve))
  sttUrl = `http://127.0.0.1:${(sttServer.address() as AddressInfo).port}/v1`

  plainBrowser = await launchChromium()
}, 180_000)

/**
 * Chromium with the fake microphone playing the caller's WAV, written in the test's own folder
 * (temp folders go after each test; a fake device whose file is gone gives only quiet).
 */
function launchMicrophoneBrowser(): Promise<Browser> {
  const microphone = join(makeTempDir('voicedesk-e2e-test-call-mic'), 'caller.wav')
  writeFileSync(microphone, microphoneWav)
  return launchChromium({ microphoneWav: microphone })
}

// spawn-cli stops every CLI it started after each test: each test starts its own `voicedesk serve`.
beforeEach(async () => {
  server = await startServe(makeTempDir('voicedesk-e2e-test-call'), ['--port', '0'], { env: { VOICEDESK_API_KEY: API_KEY } })
  uiLink = /^Operator UI: (\S+)$/m.exec(server.cli.stdout())![1]!
}, 60_000)

afterAll(async () => {
  await microphoneBrowser?.close()
  await plainBrowser?.close()
  await new Promise((resolve) => sttServer?.close(resolve))
})

/** Opens the agent's Test call tab. */
async function openTestCall(page: Page, agentId: string): Promise<void> {
  await page.goto(uiLink)
  await page.locator('.item-list').waitFor()
  // The agent's deep link, once the token has been taken from the address.
  await page.evaluate((id) => ((globalThis as unknown as { location: { hash: string } }).location.hash = `#/agents/${id}`), agentId)
  await page.getByTestId('agent-tab-test').click()
  await page.getByTestId('test-call-type').waitFor()
}

const transcriptTurns = (page: Page) =>
  page.getByTestId('test-call-transcript').evaluate((list) =>
    [
      ...(
        list as unknown as {
          querySelectorAll(selector: string): Iterable<{ dataset: Record<string, string>; textContent: string | null }>
        }
      ).querySelectorAll('[data-role]'),
    ].map((item) => ({ role: item.dataset.role!, kind: item.dataset.kind!, text: item.textContent ?? '' })),
  )

const activity = (page: Page) => page.getByTestId('test-call-activity').getAttribute('data-activity')

/** Types a caller turn and waits for the agent's answer to be written (a new agent turn after it). */
async function sayTyped(page: Page, text: string): Promise<void> {
  const before = (await transcriptTurns(page)).length
  await page.getByTestId('test-call-input').fill(text)
  await page.getByTestId('test-call-input').press('Enter')
  await poll(async () => {
    const turns = (await transcriptTurns(page)).slice(before)
    const typed = turns.findIndex((turn) => turn.role === 'caller' && turn.kind === 'typed' && turn.text.includes(text))
    return typed >= 0 && turns.slice(typed + 1).some((turn) => turn.role === 'agent')
  }).toBe(true)
}

describe('a typed test call', () => {
  it('fills the template agent’s outcome as the caller answers, ends by itself, and is then in the monitor', async () => {
    const agentId = await cloneTemplate('Restaurant Reservations', 'Olive booking line')
    await v1('PATCH', `/v1/voice-agents/${agentId}`, { tools: { smartCallEnd: true } })
    const context = await plainBrowser!.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    const problems = collectProblems(page)
    try {
      await openTestCall(page, agentId)
      // The placeholders come prefilled with the agent's params.
      await expect(page.locator('input[data-param="restaurantName"]').inputValue()).resolves.toBe('Olive & Ember')
      await page.locator('input[data-param="agentName"]').fill('Nora')
      await page.getByTestId('test-call-type').click()
      // The greeting, with the value set for this call; no microphone in Type.
      await poll(async () =>
        (await transcriptTurns(page)).some((turn) => turn.role === 'agent' && turn.text.includes('this is Nora')),
      ).toBe(true)
      await expect(page.locator('.test-call-mic').getAttribute('data-mic')).resolves.toBe('off')
      await poll(() => activity(page)).toBe('listening')
      // The outcome's fields are listed from the start, the required ones marked.
      await expect(page.locator('[data-field="guestName"] dt').textContent()).resolves.toContain('required')
      await expect(page.locator('[data-field="guestName"]').getAttribute('data-filled')).resolves.toBe('false')

      await sayTyped(page, "Yes, I'd like to book a table")
      await sayTyped(page, "I'm Sara Ali and we are 4 people for next friday")
      // Filled while the call runs, before the end.
      await poll(() => page.locator('[data-field="guestName"]').getAttribute('data-filled')).toBe('true')
      await expect(page.locator('[data-field="guestName"] dd').textContent()).resolves.toBe('Sara Ali')
      await expect(page.locator('[data-field="partySize"] dd').textContent()).resolves.toBe('4')
      await expect(page.getByTestId('test-call-outcome').getAttribute('data-final')).resolves.toBe('false')
      await shot(page, 'test-call-typed-live')
      await sayTyped(page, 'at 8 pm')
      await sayTyped(page, 'oh five oh one two three four five six seven')
      await sayTyped(page, 'terrace')
      await sayTyped(page, "I'm allergic to nuts, and one vegetarian")
      await sayTyped(page, 'no')
      await poll(async () => (await transcriptTurns(page)).at(-1)?.text ?? '').toMatch(/Is that right\?/)
      await page.getByTestId('test-call-input').fill('yes')
      await page.getByTestId('test-call-input').press('Enter')

      // The call ends by itself: smart end, completed, the outcome final and complete.
      const ended = page.getByTestId('test-call-ended')
      await poll(() => ended.getAttribute('data-end-reason')).toBe('smart-end')
      await expect(ended.textContent()).resolves.toContain('Completed')
      await expect(page.getByTestId('test-call-outcome').getAttribute('data-final')).resolves.toBe('true')
      await expect(page.locator('[data-field="time"] dd').textContent()).resolves.toBe('20:00')
      await expect(page.locator('[data-field="seatingPreference"] dd').textContent()).resolves.toBe('terrace')
      await expect(page.locator('[data-field="status"] dd').textContent()).resolves.toBe('request_confirmed')
      // Focus lands on "Call again"; the agent's voice was played (answers came as audio).
      await expect(
        page.evaluate(
          () =>
            (globalThis as unknown as { document: { activeElement: { dataset: Record<string, string> } } }).document.activeElement.dataset
              .testid,
        ),
      ).resolves.toBe('test-call-again')
      await expect(page.locator('.test-call').getAttribute('data-reply-ms')).resolves.toMatch(/^\d+(\.\d+)?(,\d+(\.\d+)?){6,}$/)
      await shot(page, 'test-call-typed-ended')

      // The same conversation in the monitor, through the panel's link.
      const jobId = (await page.getByTestId('test-call-monitor').getAttribute('href'))!.replace('#/jobs/', '')
      await page.getByTestId('test-call-monitor').click()
      await poll(() => page.getByTestId('job-detail-status').textContent()).toContain('Completed')
      await expect(page.locator('.transcript').textContent()).resolves.toContain('Sara Ali')
      await shot(page, 'test-call-typed-monitor')
      const job = await v1<{
        type: string
        status: string
        jobResponse: { endReason: string; outcomeResult: Record<string, unknown>; transcript: { kind?: string }[] }
      }>('GET', `/v1/jobs?jobId=${jobId}`)
      expect(job).toMatchObject({ type: 'CONVERSATION', status: 'COMPLETED', jobResponse: { endReason: 'smart-end' } })
      expect(job.jobResponse.outcomeResult).toMatchObject({ guestName: 'Sara Ali', partySize: 4, seatingPreference: 'terrace' })
      expect(job.jobResponse.transcript.filter((turn) => turn.kind === 'typed')).toHaveLength(8)
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 300_000)
})

describe('a spoken test call', () => {
  it('hears the fake microphone: the recognised words are in the transcript and the agent answers', async () => {
    // settings.setSttEngine through the operator bridge, as the Settings screen does (the double above).
    const token = decodeURIComponent(/#token=([^&]+)/.exec(uiLink)![1]!)
    const set = await fetch(`${server!.url}/ipc/settings.setSttEngine`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ engine: 'openai-compatible', baseUrl: sttUrl }),
    })
    expect(await set.json()).toMatchObject({ ok: true })
    const agent = await v1<{ id: string }>('POST', '/v1/voice-agents', {
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
    })
    microphoneBrowser = await launchMicrophoneBrowser()
    const context = await microphoneBrowser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    const problems = collectProblems(page)
    try {
      await openTestCall(page, agent.id)
      await page.locator('input[data-param="customerName"]').fill('Sara')
      await page.getByTestId('test-call-talk').click()
      await poll(() => page.locator('.test-call-mic').getAttribute('data-mic')).toBe('on')
      // The greeting, its placeholder filled; the microphone may talk over it, and then it keeps the words played.
      const greeting = 'Hello Sara, welcome to Olive Grove.'
      let seen: Awaited<ReturnType<typeof transcriptTurns>> = []
      await poll(async () =>
        (seen = await transcriptTurns(page)).some((turn) => {
          if (turn.role !== 'agent') return false
          // A turn reads "0:01.0 Agent Hello (interrupted)": its time, who spoke, the words.
          const cut = /\bAgent\s+(.*?)\s*\(interrupted\)$/.exec(turn.text.trim())
          return cut ? cut[1]!.length > 0 && greeting.startsWith(cut[1]!) : turn.text.includes(greeting)
        }),
      )
        .toBe(true)
        .catch((error: unknown) => {
          throw new Error(`No greeting among the turns ${JSON.stringify(seen)}`, { cause: error })
        })
      // The caller's words, recognised from the microphone's audio, then the agent's next question.
      await poll(async () => {
        const turns = await transcriptTurns(page)
        const spoken = turns.findIndex((turn) => turn.role === 'caller' && turn.kind === 'speech' && turn.text.includes(CALLER_SAYS))
        return spoken >= 0 && turns.slice(spoken + 1).some((turn) => turn.role === 'agent')
      }, 60_000).toBe(true)
      await poll(() => page.locator('[data-field="customerName"]').getAttribute('data-filled')).toBe('true')
      await shot(page, 'test-call-spoken')
      // Mute stops the audio; End hangs up.
      await page.getByRole('button', { name: 'Mute' }).click()
      await expect(page.locator('.test-call-mic').getAttribute('data-mic')).resolves.toBe('muted')
      await page.getByTestId('test-call-end').click()
      await poll(() => page.getByTestId('test-call-ended').getAttribute('data-end-reason')).toBe('caller-hangup')
      expect(sttAnswers[0]).toBe(CALLER_SAYS)
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 240_000)
})

describe('tools in a test call', () => {
  it('answers the agent’s tool call with the stub as edited during the call, and keeps the tools for the next visit', async () => {
    const model = await startWeatherModelDouble({
      callsToolWhen: 'asked-about-weather',
      argumentPieces: ['{"city": "Dubai"}'],
      replyAfterTool: (answer) => [`It is ${(JSON.parse(answer || '{}') as { forecast?: string }).forecast ?? 'unknown'} in Dubai.`],
    })
    const context = await plainBrowser!.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    const problems = collectProblems(page)
    try {
      // settings.setAiEngine through the operator bridge: the dialogue runs on the double above.
      const token = decodeURIComponent(/#token=([^&]+)/.exec(uiLink)![1]!)
      const set = await fetch(`${server!.url}/ipc/settings.setAiEngine`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ engine: 'openai-compatible', baseUrl: model.url, model: 'tool-model' }),
      })
      expect(await set.json()).toMatchObject({ ok: true })
      const agent = await v1<{ id: string }>('POST', '/v1/voice-agents', {
        agentName: 'Weather desk',
        lang: 'en',
        greetingMessage: 'Weather desk, hello.',
      })
      await openTestCall(page, agent.id)
      await page.getByRole('button', { name: 'Add a tool' }).click()
      const tool = page.getByTestId('test-call-tool')
      await tool.getByLabel('Name').fill('getWeather')
      await tool.getByLabel('What it does').fill('The weather in a city')
      await tool
        .getByLabel('Parameters (JSON Schema)')
        .fill('{"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}')
      // A stub that is not JSON stops the call, with the field marked.
      await tool.getByLabel('Stub answer (JSON)').fill('rainy')
      await page.getByTestId('test-call-type').click()
      await expect(page.getByText('Fix the tools before calling.').isVisible()).resolves.toBe(true)
      await expect(tool.getByLabel('Stub answer (JSON)').getAttribute('aria-invalid')).resolves.toBe('true')
      await tool.getByLabel('Stub answer (JSON)').fill('{"forecast": "rainy"}')
      await page.getByTestId('test-call-type').click()
      await poll(async () =>
        (await transcriptTurns(page)).some((turn) => turn.role === 'agent' && turn.text.includes('Weather desk, hello.')),
      ).toBe(true)

      // The stub edited during the call is the answer the next tool call gets.
      await page.locator('.test-call-side').getByLabel('Stub answer (JSON)').fill('{"forecast": "sunny", "degrees": 31}')
      await sayTyped(page, 'What is the weather in Dubai?')
      const toolCall = page.locator('.test-call-tool-call[data-tool="getWeather"]')
      await expect(toolCall.locator('pre').first().textContent()).resolves.toContain('"city": "Dubai"')
      await expect(toolCall.getByTestId('tool-answer').textContent()).resolves.toContain('"forecast": "sunny"')
      await poll(async () =>
        (await transcriptTurns(page)).some((turn) => turn.role === 'agent' && turn.text.includes('It is sunny in Dubai.')),
      ).toBe(true)
      expect(model.toolMessages.map((message) => JSON.parse(message) as unknown)).toEqual([{ forecast: 'sunny', degrees: 31 }])
      await shot(page, 'test-call-tools')
      // The call runs on behind the Settings tab (arrow keys move between the tabs).
      await page.getByTestId('agent-tab-test').focus()
      await page.keyboard.press('ArrowLeft')
      await expect(page.getByTestId('agent-tab-settings').getAttribute('aria-selected')).resolves.toBe('true')
      await expect(page.locator('.test-call').isVisible()).resolves.toBe(false)
      await expect(page.locator('.editor').isVisible()).resolves.toBe(true)
      await page.keyboard.press('ArrowRight')
      await expect(page.locator('.test-call').isVisible()).resolves.toBe(true)
      await expect(activity(page)).resolves.toBe('listening')
      await page.getByTestId('test-call-end').click()
      await poll(() => page.getByTestId('test-call-ended').getAttribute('data-end-reason')).toBe('caller-hangup')

      // Kept in this browser for this agent, the stub as last edited.
      await page.reload()
      await page.getByTestId('agent-tab-test').click()
      await expect(page.getByTestId('test-call-tool').getByLabel('Name').inputValue()).resolves.toBe('getWeather')
      await expect(page.getByTestId('test-call-tool').getByLabel('Stub answer (JSON)').inputValue()).resolves.toBe(
        '{"forecast": "sunny", "degrees": 31}',
      )
      expect(problems).toEqual([])
    } finally {
      await context.close()
      await new Promise((resolve) => model.server.close(resolve))
    }
  }, 180_000)
})

describe('a spoken test call with no speech recognition engine', () => {
  it('says so before the call, and its offers work: the engine settings, or typing instead', async () => {
    const agentId = await cloneTemplate('Restaurant Reservations', 'Olive Grove, no engine')
    const context = await plainBrowser!.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    const problems = collectProblems(page)
    try {
      await openTestCall(page, agentId)
      await page.getByTestId('test-call-talk').click()
      await expect(page.getByTestId('test-call-no-stt').textContent()).resolves.toContain('No speech recognition engine is set')
      // No call started: the setup is still there, and no live call.
      await expect(page.getByTestId('test-call-transcript').count()).resolves.toBe(0)
      await page.getByTestId('test-call-no-stt-settings').click()
      await poll(() => page.evaluate(() => (globalThis as unknown as { location: { hash: string } }).location.hash)).toContain('settings')
      await openTestCall(page, agentId)
      await page.getByTestId('test-call-talk').click()
      await page.getByTestId('test-call-no-stt-type').click()
      await poll(async () => (await transcriptTurns(page)).some((turn) => turn.role === 'agent')).toBe(true)
      await sayTyped(page, 'I would like a table for two tonight')
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 120_000)
})

describe('the panel in Arabic, small and large', () => {
  it('has no English on it, says the microphone was refused while typing works, and never scrolls the shell at 1024×640', async () => {
    const agentId = await cloneTemplate('كونسيرج الفندق', 'كونسيرج فندق النخيل')
    const context = await plainBrowser!.newContext({ viewport: { width: 1024, height: 640 }, locale: 'ar' })
    const page = await context.newPage()
    page.setDefaultTimeout(STEP_MS)
    // The refused microphone is expected here (no fake device in this browser).
    const problems = collectProblems(page)
    try {
      await page.addInitScript(() =>
        (globalThis as unknown as { localStorage: { setItem(k: string, v: string): void } }).localStorage.setItem('voicedesk.locale', 'ar'),
      )
      await openTestCall(page, agentId)
      await page.locator('.test-call-setup .fieldset button').last().click() // add a tool
      await expect(page.getByTestId('test-call-tool').count()).resolves.toBe(1)
      expect(await latinUiText(page)).toEqual([])
      await shot(page, 'test-call-arabic-setup')

      // Talk with no speech recognition engine set: the panel says so first, in Arabic, and offers typing or the settings.
      await page.getByTestId('test-call-talk').click()
      await page.getByTestId('test-call-no-stt').waitFor()
      expect(await latinUiText(page)).toEqual([])
      await shot(page, 'test-call-arabic-no-stt')
      // Talk anyway, without a microphone this browser will give: a clear message; typing still works.
      await page.getByTestId('test-call-no-stt-talk').click()
      await poll(() => page.getByTestId('test-call-mic-problem').isVisible()).toBe(true)
      await poll(async () => (await transcriptTurns(page)).some((turn) => turn.role === 'agent')).toBe(true)
      await sayTyped(page, 'أريد حجز طاولة في المطعم الليلة')
      await page.waitForTimeout(300)
      expect(await latinUiText(page)).toEqual([])
      await shot(page, 'test-call-arabic-live')

      // Wheel over the panel's own scrollers, the pane and the list: the shell stays where it was.
      for (const selector of ['.test-call-transcript', '.test-call-side', '.detail-pane', '.list-pane']) {
        const box = await page.locator(selector).first().boundingBox()
        if (!box) continue
        await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 150))
        await page.mouse.wheel(0, 4_000)
        await page.mouse.wheel(4_000, 0)
        await page.mouse.wheel(-8_000, 0)
      }
      await page.getByTestId('test-call-input').focus()
      await page.keyboard.press('End')
      await page.waitForTimeout(150)
      expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)
      await expect(page.locator('.status-bar').isVisible()).resolves.toBe(true)
      await shot(page, 'test-call-arabic-1024x640-after-wheel')

      await page.setViewportSize({ width: 2560, height: 1440 })
      await page.waitForTimeout(200)
      expect(await shellOffsets(page)).toEqual(SHELL_AT_REST)
      await shot(page, 'test-call-arabic-2560x1440')
      await page.getByTestId('test-call-end').click()
      await poll(() => page.getByTestId('test-call-ended').getAttribute('data-end-reason')).toBe('caller-hangup')
      expect(problems).toEqual([])
    } finally {
      await context.close()
    }
  }, 240_000)
})
