import { monitorEventLoopDelay } from 'node:perf_hooks'
import { afterEach, describe, expect, it } from 'vitest'
import { ConversationEnvelopeSchema, type Conversation, type TranscriptTurn } from '../../src/shared/api/conversations'
import { timeWords, wordsHeard } from '../../src/conversations/word-timing'
import { SdkCallClient, type ReceivedFrame } from '../helpers/sdk-call-client'
import { CALLER_VOICES, spokenSamples } from '../helpers/spoken-audio'
import { startTestService, type TestService } from '../helpers/test-service'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver'

/*
 * A caller who talks over the agent, end to end: a real service on 127.0.0.1, real WebSocket
 * clients speaking the web SDK's frames, the caller's voice made by the project's eSpeak voice,
 * webhooks to a loopback receiver. What the caller heard is worked out on the client's side,
 * from the audio it received and its own playback queue at the `clear`; the saved turn, its
 * webhook and the `clear` frame must say the same words, to within one.
 */

const AGENT_VOICE = 'd7c17d05-0c73-4196-8cd2-25f2687d90b0'
const GREETING =
  'Hello and welcome to Olive Grove, the finest restaurant by the sea. Every table has a view of the harbour. How else can I help?'
const RATE = 16_000

const clients: SdkCallClient[] = []
afterEach(() => {
  for (const client of clients.splice(0)) client.close()
})

async function setUp(): Promise<{ service: TestService; baseUrl: string; agentId: string; receiver: WebhookReceiver }> {
  const receiver = await startWebhookReceiver()
  const service = await startTestService({ port: 0 })
  const baseUrl = (await service.runtime.start()).replace('localhost', '127.0.0.1')
  const created = await service.call('POST', '/v1/voice-agents', {
    body: {
      agentName: 'Olive Grove',
      lang: 'en',
      voiceId: AGENT_VOICE,
      greetingMessage: GREETING,
      webhookUrl: `${receiver.url}/calls`,
      interrupt: true,
      silenceThreshold: 30,
    },
  })
  expect(created.statusCode, created.body).toBe(200)
  return { service, baseUrl, agentId: created.json<{ data: { id: string } }>().data.id, receiver }
}

/**
 * The words the client's playback had played at its `clear` (or `earlierMs` before it arrived):
 * its queue replayed frame by frame. Words are timed over each sentence's whole audio, made
 * here with the agent's voice: at the clear the client holds only the start of the sentence
 * being played, and timing all its words over that part would place them too early.
 */
async function heardByClient(frames: ReceivedFrame[], earlierMs = 0): Promise<{ words: string[]; captions: string[] }> {
  const captions: string[] = []
  let playbackEnd = 0
  let received = 0
  for (const { frame, at } of frames) {
    if (frame.event === 'answer') captions.push(frame.content)
    if (frame.event === 'media') {
      const samples = Buffer.from(frame.media.payload, 'base64').length / 2
      playbackEnd = Math.max(playbackEnd, at) + (samples * 1000) / RATE
      received += samples
    }
    if (frame.event === 'clear') {
      let played = received - Math.max(0, Math.round(((playbackEnd - (at - earlierMs)) * RATE) / 1000))
      const words: string[] = []
      for (const caption of captions) {
        const audio = await sentenceAudio(caption)
        const heard = wordsHeard(timeWords(caption, audio, AGENT_VOICE), played)
        words.push(...heard.map((word) => word.text))
        played -= audio.length
        if (played <= 0) break
      }
      return { words, captions }
    }
  }
  throw new Error('no clear frame')
}

const sentences = new Map<string, Promise<Int16Array>>()
function sentenceAudio(text: string): Promise<Int16Array> {
  let audio = sentences.get(text)
  if (!audio) {
    audio = spokenSamples(text, AGENT_VOICE).then((samples) => Int16Array.from(samples, (sample) => Math.round(sample * 32767)))
    sentences.set(text, audio)
  }
  return audio
}

async function conversation(service: TestService, jobId: string): Promise<Conversation> {
  const response = await service.call('GET', `/v1/voice-agents/conversation/${jobId}`)
  return ConversationEnvelopeSchema.parse(response.json()).data
}

/** The call's first agent turn, once written. */
function agentTurn(service: TestService, jobId: string): Promise<TranscriptTurn | undefined> {
  return poll(async () => (await conversation(service, jobId)).transcript.find((turn) => turn.role === 'agent'))
}

async function poll<T>(look: () => T | undefined | Promise<T | undefined>, timeoutMs = 10_000): Promise<T | undefined> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const found = await look()
    if (found !== undefined || Date.now() > until) return found
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('a caller who talks over the agent', () => {
  it('two calls at once: each saved turn, its webhook and the clear frame end at the word where the caller cut in', async () => {
    const setup = await setUp()
    // Service and callers share this process: a stalled event loop delivers the `clear` late, and
    // the client's playback ran on meanwhile. The longest stall widens the tolerance by what played in it.
    const stalls = monitorEventLoopDelay({ resolution: 10 })
    stalls.enable()
    const interruption = await spokenSamples('Sorry, I need a table for two tonight please.', CALLER_VOICES.enFemale)
    const calls = await Promise.all(
      [1_200, 2_600].map(async (afterMs) => {
        const init = await setup.service.call('POST', '/v1/voice-agents/conversation-init', { body: { voiceAgentId: setup.agentId } })
        const jobId = init.json<{ data: { jobId: string } }>().data.jobId
        const client = await SdkCallClient.connect(setup.baseUrl, jobId, setup.service.key)
        clients.push(client)
        await client.nth('media', 1, 15_000)
        // The caller listens for a while (the microphone's quiet floor), then talks over the agent.
        await client.silence(afterMs)
        await client.speak(interruption)
        const clear = await client.nth('clear', 1, 10_000)
        await client.silence(1_000)
        return { jobId, client, clear }
      }),
    )
    stalls.disable()
    const stallMs = stalls.max / 1e6
    for (const { jobId, client, clear } of calls) {
      const { words, captions } = await heardByClient(client.frames)
      const beforeStall = (await heardByClient(client.frames, stallMs)).words
      const afterStall = (await heardByClient(client.frames, -stallMs)).words
      const agent = await agentTurn(setup.service, jobId)
      const saved = (agent?.content ?? '').split(' ').filter(Boolean)
      expect(agent?.interrupted).toBe(true)
      // The saved words are the greeting's first words, within one word of what the client played
      // (more or fewer only by what plays during this process's longest event-loop stall, measured:
      // a stall delays the client's frames, or its reading of the clear).
      expect(GREETING.split(' ').slice(0, saved.length)).toEqual(saved)
      const said = `saved "${agent?.content}", client heard "${words.join(' ')}" (longest stall ${Math.round(stallMs)} ms)`
      expect(saved.length, said).toBeLessThanOrEqual(afterStall.length + 1)
      expect(saved.length, said).toBeGreaterThanOrEqual(beforeStall.length - 1)
      expect(saved.length).toBeLessThan(GREETING.split(' ').length)
      expect(agent?.content).not.toContain('How else can I help?')
      expect(clear).toEqual({ event: 'clear' })
      const told = await client.waitFor(
        () => client.framesOf('info').find((frame) => frame.code === 'AGENT_INTERRUPTED'),
        5_000,
        'AGENT_INTERRUPTED',
      )
      expect(told).toMatchObject({ heard: agent?.content })
      // Captions only of sentences whose audio was sent, each right after its first audio frame (never ahead of it).
      expect(GREETING.startsWith(captions.join(' '))).toBe(true)
      for (const [index, received] of client.frames.entries()) {
        if (received.frame.event === 'answer') expect(client.frames[index - 1]?.frame.event).toBe('media')
      }
    }
    // The webhook of each agent turn says the same words.
    for (const { jobId } of calls) {
      const record = await agentTurn(setup.service, jobId)
      const update = await poll(() =>
        setup.receiver.requests
          .map((request) => JSON.parse(request.body) as { eventType: string; callId: string; data: { turn?: TranscriptTurn } })
          .find((event) => event.eventType === 'transcription.update' && event.callId === jobId && event.data.turn?.role === 'agent'),
      )
      expect(update?.data.turn).toMatchObject({ content: record?.content, interrupted: true })
    }
  }, 120_000)
})
