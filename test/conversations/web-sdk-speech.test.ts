import { afterEach, describe, expect, it } from 'vitest'
import {
  closeCallsAndServers,
  conversation,
  ended,
  setSttEngine,
  setUpCall,
  startCall,
  startSpeechServerDouble,
  waitForTurn,
} from '../helpers/web-sdk-call'
import type { Conversation } from '../../src/shared/api/conversations'
import { CALLER_VOICES, spokenSamples } from '../helpers/spoken-audio'
import { TYPED_ONLY_NOTICE } from '../../src/conversations/call-session'
import { onPostgres } from '../helpers/test-engine'

/*
 * Speech on live calls (split from web-sdk-protocol so the two run side by side): barge-in, a
 * speaking caller with no recognition, recognition and gender through a speech-server double.
 * Live calls end to end: a real service on 127.0.0.1, a real WebSocket client that speaks the
 * web SDK 0.3.1's frames (Float32 in, PCM16 out), real speech made by the project's own voice,
 * real webhooks to a loopback receiver. Speech recognition and chat models are servers outside
 * this machine in real use; here they are loopback doubles, and each test that uses one says so.
 */

/** Speech on a call stores nothing that differs by engine: SQLite only (project postgres-alone skips it). */
const onSqliteOnly = onPostgres ? it.skip : it

afterEach(closeCallsAndServers)

describe('speech on a call over the web SDK protocol', () => {
  onSqliteOnly(
    'stops talking when the caller speaks over the agent: clear, and the agent’s turn marked interrupted',
    async () => {
      const setup = await setUpCall({
        greetingMessage:
          'Hello and welcome to Olive Grove, the finest restaurant by the sea, where every table has a view of the harbour and every evening has music.',
      })
      const { jobId, client } = await startCall(setup)
      await client.nth('media', 3)
      const speech = await spokenSamples('Sorry, I need a table for two tonight please.', CALLER_VOICES.en)
      await client.speak(speech)
      await client.nth('clear', 1, 5_000)
      await client.silence(1_200)
      const current = await conversation(setup, jobId)
      expect(current.bargeIns).toBe(1)
      expect(current.transcript[0]).toMatchObject({ role: 'agent', interrupted: true })
      // Speech recognition is off: the caller's turn is heard, not understood, and the call says so.
      expect(client.framesOf('info').map((frame) => frame.code)).toContain('STT_ENGINE_NOT_CONFIGURED')
      const heard = await waitForTurn(setup, jobId, (turns) => turns.some((turn) => turn.role === 'caller' && turn.unrecognised))
      expect(heard).toBe(true)
    },
    120_000,
  )

  onSqliteOnly.each([
    ['en', CALLER_VOICES.en, 'Hello, my name is Sara and I need a table for two.', 'Hello, thanks for calling Olive Grove.'],
    ['ar', CALLER_VOICES.ar, 'مرحبا، اسمي سارة وأريد طاولة لشخصين.', 'أهلًا بك في مطعم الزيتون.'],
  ] as const)(
    'with no speech recognition, tells a speaking caller once, in the agent’s language (%s), that it takes typed answers; typed turns still work',
    async (lang, voice, said, greeting) => {
      const setup = await setUpCall({ lang, greetingMessage: greeting, pokeMessages: [], interrupt: false })
      const { jobId, client } = await startCall(setup)
      await client.nth('mark', 1, 15_000)
      const speech = await spokenSamples(said, voice)
      const answersBefore = client.framesOf('answer').length
      await client.speak(speech)
      await client.silence(1_200)
      const notice = await client.nth('answer', answersBefore + 1, 30_000)
      expect(notice.content).toBe(TYPED_ONLY_NOTICE[lang])
      // Spoken again once the notice was heard: written as unrecognised, but the notice is not repeated.
      expect(
        await waitForTurn(setup, jobId, (turns) => turns.some((turn) => turn.role === 'agent' && turn.content === TYPED_ONLY_NOTICE[lang])),
      ).toBe(true)
      await client.speak(speech)
      await client.silence(1_200)
      const unrecognised = (turns: Conversation['transcript']) => turns.filter((turn) => turn.role === 'caller' && turn.unrecognised).length
      expect(await waitForTurn(setup, jobId, (turns) => unrecognised(turns) === 2)).toBe(true)
      client.send({ event: 'text', content: lang === 'ar' ? 'اسمي سارة علي' : 'My name is Sara Ali' })
      const answersBeforeTyped = client.framesOf('answer').length
      await client.nth('transcription', 1, 30_000)
      await client.nth('answer', answersBeforeTyped + 1, 30_000)
      await client.hangUp()
      const { call } = await ended(setup, jobId, Date.now())
      const agentSaid = call.transcript.filter((turn) => turn.role === 'agent').map((turn) => turn.content)
      expect(agentSaid.filter((content) => content === TYPED_ONLY_NOTICE[lang])).toHaveLength(1)
      expect(client.framesOf('answer').filter((frame) => frame.content === TYPED_ONLY_NOTICE[lang])).toHaveLength(1)
      expect(call.transcript.find((turn) => turn.role === 'caller' && turn.kind === 'typed')).toMatchObject({
        content: lang === 'ar' ? 'اسمي سارة علي' : 'My name is Sara Ali',
      })
      expect(agentSaid.length).toBeGreaterThanOrEqual(3)
    },
    120_000,
  )

  onSqliteOnly(
    'recognises spoken turns through an OpenAI-compatible speech server (a loopback double standing for one outside this machine)',
    async () => {
      const scripted = ['My name is Omar Khalid']
      const stt = await startSpeechServerDouble(scripted)
      const setup = await setUpCall()
      await setSttEngine(setup, stt.url)
      const { jobId, client } = await startCall(setup)
      await client.nth('mark', 1, 15_000)
      await client.speak(await spokenSamples('My name is Omar Khalid.', CALLER_VOICES.en))
      await client.silence(1_500)
      const transcription = await client.nth('transcription', 1, 10_000)
      expect(transcription.content).toBe('My name is Omar Khalid')
      expect(stt.requests[0]).toMatchObject({ language: 'en', sampleRate: 16_000 })
      expect(stt.requests[0]!.seconds).toBeGreaterThan(1)
      await client.nth('answer', 2, 10_000)
      await client.hangUp()
      const { call } = await ended(setup, jobId, Date.now())
      expect(call.transcript.find((turn) => turn.role === 'caller')).toMatchObject({ content: 'My name is Omar Khalid' })
      expect(call.speechRecognition).toMatchObject({ enabled: true, engine: 'openai-compatible' })
      expect(call.endReason).toBe('caller-hangup')
    },
    120_000,
  )

  onSqliteOnly(
    'hears a woman’s voice and addresses her as one in Arabic (genderDetection), with a loopback speech server double',
    async () => {
      const stt = await startSpeechServerDouble(['اسمي سارة حداد'])
      const setup = await setUpCall({
        agentName: 'حجز الطاولات',
        lang: 'ar',
        voiceId: '16677e49-bcd2-4044-adb3-541626c49304',
        greetingMessage: 'أهلاً بك في مطعم الزيتون.',
        tools: { genderDetection: true },
      })
      await setSttEngine(setup, stt.url)
      const { jobId, client } = await startCall(setup)
      await client.nth('mark', 1, 15_000)
      await client.speak(await spokenSamples('اسمي سارة حداد', CALLER_VOICES.arFemale))
      await client.silence(1_200)
      await client.nth('transcription', 1, 10_000)
      expect(stt.requests[0]).toMatchObject({ language: 'ar' })
      await client.nth('answer', 4, 10_000)
      // Before her voice was heard the agent asked in the masculine default (تقول); after it, in the feminine (تقولي).
      const questions = client.framesOf('answer').map((frame) => frame.content)
      expect(questions[1]).toMatch(/تقول /)
      expect(questions[3]).toMatch(/تقولي /)
      await client.hangUp()
      const { call } = await ended(setup, jobId, Date.now())
      expect(call.callerGender).toBe('female')
      const requests = await setup.receiver.waitForRequests(3 + call.transcript.length, 10_000)
      const end = requests
        .map((request) => JSON.parse(request.body) as { eventType: string; data: { callerGender?: string } })
        .find((event) => event.eventType === 'call.ended')
      expect(end?.data.callerGender).toBe('female')
    },
    120_000,
  )
})
