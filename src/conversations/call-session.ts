import type { EndReason, TranscriptTurn } from '../shared/api/conversations'
import type { ClientFrame, ServerFrame } from '../shared/api/stream-frames'
import type { DialogueEvent, RespondOptions } from '../engines/dialogue/dialogue-engine'
import { float32FromBase64, float32FromInt16, int16FromBase64, int16FromFloat32 } from '../engines/audio/pcm-encoding'
import { writeWavPcm16Mono } from '../engines/audio/wav-file'
import { CALL_SAMPLE_RATE } from './call-audio'
import { CallLedger, round3, type CallFailure } from './call-ledger'
import { CallObserver } from './call-observer'
import type { CallActivity, CallSessionOptions } from './call-session-options'
import { CallerTurns } from './caller-turns'
import { SpeechOutput, type Utterance } from './speech-output'
import { ToolBridge } from './tool-bridge'

export type { CallActivity, CallEventWriter, CallLimits, CallObservation, CallSessionOptions, CallTransport } from './call-session-options'

/**
 * Said once, the first time a caller speaks while no speech recognition is set: the agent hears
 * that someone spoke but not the words, so it says so rather than staying silent turn after turn.
 */
export const TYPED_ONLY_NOTICE: Readonly<Record<'ar' | 'en', string>> = {
  en: "Sorry, I can't understand spoken words right now. Please type your answer instead.",
  ar: 'عذرًا، لا أستطيع فهم الكلام المنطوق الآن. من فضلك اكتب إجابتك.',
}

/** How often an observed call looks again at what the agent is doing (playback ends with no event of its own). */
const ACTIVITY_CHECK_MS = 100
/** An unpaced client's lead: far more than any answer's audio, so every frame is sent as soon as it is made. */
const UNPACED_LEAD_MS = 10 * 60_000

/**
 * One live call, joining its rooms: the caller's turns (CallerTurns), the agent's voice
 * (SpeechOutput), tools in the page (ToolBridge), what is kept (CallLedger) and what an observer
 * is told (CallObserver). Here: the order of the dialogue's work (greeting, answers, pokes),
 * barge-in, and the call's end.
 */
export class CallSession {
  private readonly output: SpeechOutput
  private readonly caller: CallerTurns
  private readonly ledger: CallLedger
  private readonly tools: ToolBridge
  private readonly observer: CallObserver
  private readonly startedAt: number
  private readonly abort = new AbortController()
  private begun = false
  private ending: Promise<void> | undefined
  /** Dialogue work in order: greeting, answers, pokes. */
  private work: Promise<void> = Promise.resolve()
  private queuedWork = 0
  private answered = false
  /** The caller was told, once, that only typed answers are understood (no speech recognition). */
  private toldTypedOnly = false
  private readonly timers: ReturnType<typeof setTimeout>[] = []
  private readonly done: Promise<void>
  private resolveDone!: () => void
  private awaitingHeard = false
  /** The task running now has said its answer and it was heard. */
  private taskSpoke = false

  constructor(private readonly options: CallSessionOptions) {
    this.startedAt = options.now()
    this.done = new Promise((resolve) => (this.resolveDone = resolve))
    this.observer = new CallObserver({ ...options, activity: () => this.activity() })
    this.ledger = new CallLedger({
      ...options,
      startedAt: this.startedAt,
      ending: () => this.ending !== undefined,
      leaseLost: () => this.leaseLost(),
    })
    this.output = new SpeechOutput({
      audio: options.audio,
      voiceId: options.agent.voiceId,
      ...(options.pronunciations ? { pronunciations: options.pronunciations } : {}),
      now: options.now,
      ...(options.transport.unpaced ? { leadMs: UNPACED_LEAD_MS } : {}),
      send: (frame, onWritten) => this.send(frame, onWritten),
      onAudio: (samples, playsAt) => this.ledger.recording.addAgent(samples, playsAt - this.startedAt),
      onError: (error) => options.onError(error, 'the agent voice failed on a sentence'),
    })
    this.tools = new ToolBridge({
      tools: options.tools,
      records: options.state.toolCalls,
      timeoutMs: options.limits.toolTimeoutMs,
      send: (frame) => this.send(frame),
      observe: (observation) => this.observer.observe(observation),
      saved: (toolCall) => this.ledger.persist('tool.executed', { toolCall }),
      seconds: () => this.ledger.seconds(),
    })
    this.caller = new CallerTurns({
      ...options,
      turnTaking: { endOfTurnSilenceMs: options.agent.endOfTurnSilenceMs, maxCallerTurnMs: options.agent.maxCallerTurnSeconds * 1000 },
      recording: this.ledger.recording,
      clock: this.ledger.callerClock,
      startedAt: this.startedAt,
      awaitingCaller: () => this.begun && !this.output.speaking && this.queuedWork === 0,
      speechStarted: (heardForMs) => this.bargeIn(heardForMs),
      turn: (turn) => this.enqueue(() => this.callerSpoke(turn.audio, turn.startTime, turn.endTime)),
      poke: (message) => {
        this.observer.observe({ type: 'poke', at: this.ledger.seconds(), content: message })
        this.enqueue(() => this.agentSays(oneLine(message), 'poke'))
      },
      silentToTheEnd: () => void this.end('silence'),
      gender: (gender) => options.dialogue.setCallerTraits({ gender }),
    })
    this.timers.push(setTimeout(() => this.begin(), options.limits.startGraceMs))
    this.timers.push(setTimeout(() => void this.end('max-duration'), options.limits.maxDurationMs))
    const renew = setInterval(() => void this.ledger.persist(), Math.max(1_000, Math.floor(options.limits.leaseMs / 3)))
    this.timers.push(renew)
    if (this.observer.enabled) this.timers.push(setInterval(() => this.observer.checkActivity(), ACTIVITY_CHECK_MS))
  }

  /** Resolves once the call ended and was written. */
  get finished(): Promise<void> {
    return this.done
  }

  get jobId(): string {
    return this.options.job.id
  }

  /** A frame from the caller's side. */
  receive(frame: ClientFrame): void {
    if (this.ending) return
    switch (frame.event) {
      case 'start':
        return this.begin()
      case 'media': {
        this.begin()
        let samples: Float32Array
        try {
          samples = float32FromBase64(frame.media.payload)
        } catch {
          return this.send({
            event: 'info',
            code: 'INVALID_FRAME',
            message: 'A media payload must be base64 Float32 LE samples (a multiple of 4 bytes)',
          })
        }
        return this.caller.hear(samples)
      }
      case 'mark':
        this.output.markHeard(frame.mark.name)
        return this.observer.checkActivity()
      case 'tools_response':
        for (const entry of frame.tools_response) this.tools.answer(entry.id, entry.function.response)
        return
      case 'text':
        this.begin()
        this.caller.heardFrom()
        return this.enqueue(() => this.callerSaid(frame.content.trim(), 'typed', this.ledger.seconds(), this.ledger.seconds()))
      case 'stop':
        void this.end('caller-hangup')
    }
  }

  /**
   * Caller audio as base64 PCM16 LE at CALL_SAMPLE_RATE (the operator UI's microphone): the
   * same path as the SDK's Float32 media frames.
   */
  hearPcm16(base64: string): void {
    if (this.ending) return
    this.begin()
    let samples: Float32Array
    try {
      samples = float32FromInt16(int16FromBase64(base64))
    } catch {
      return this.send({ event: 'info', code: 'INVALID_FRAME', message: 'Audio must be base64 PCM16 LE samples (an even number of bytes)' })
    }
    this.caller.hear(samples)
  }

  /** Caller audio as samples at CALL_SAMPLE_RATE (a phone line's, decoded and resampled): the same path as media frames. */
  hearSamples(samples: Float32Array): void {
    if (this.ending) return
    this.begin()
    this.caller.hear(samples)
  }

  /**
   * Keys the caller pressed on a phone's keypad (DTMF), gathered into one entry: a caller turn
   * like a typed one, written with kind `dtmf`, answered by the same dialogue.
   */
  keysPressed(keys: string): void {
    if (this.ending || !keys) return
    this.begin()
    this.caller.heardFrom()
    this.enqueue(() => this.callerSaid(keys, 'dtmf', this.ledger.seconds(), this.ledger.seconds()))
  }

  /** The connection closed from the caller's side. */
  transportClosed(): void {
    void this.end('caller-hangup')
  }

  /**
   * Ends the call once: stops audio and dialogue, extracts the outcome, stores the recording,
   * and writes the end (COMPLETED, or FAILED with `failure`) with its `call.ended` webhook.
   */
  end(reason: EndReason, failure?: CallFailure): Promise<void> {
    this.ending ??= this.finish(reason, failure).finally(() => this.resolveDone())
    return this.ending
  }

  private begin(): void {
    if (this.begun || this.ending) return
    this.begun = true
    this.observer.checkOutcome()
    const { stt, agent } = this.options
    this.send({
      event: 'info',
      code: 'CALL_STARTED',
      message: `Connected to ${agent.agentName}`,
      jobId: this.options.job.id,
      speechRecognition: stt ? { enabled: true, engine: stt.name, model: stt.model } : { enabled: false },
    })
    if (!stt) {
      this.send({
        event: 'info',
        code: 'STT_ENGINE_NOT_CONFIGURED',
        message:
          'Speech recognition is off: the agent hears when you speak but not what you say. Configure a local OpenAI-compatible speech server (voicedesk stt-engine openai-compatible --base-url URL), or send typed turns ({"event":"text","content":"…"}).',
      })
    }
    this.enqueue(() => this.agentSays(this.options.dialogue.open(this.respondOptions()), 'speech'))
  }

  /**
   * The caller started speaking `heardForMs` ago: the agent stops, when it may be interrupted and the caller was hearing it
   * talk when they began. A caller who was already talking when the agent's audio started (the detector confirms voice a
   * little after its onset) did not talk over it: the agent goes on, and answers that turn after.
   */
  private bargeIn(heardForMs: number): void {
    if (this.options.agent.interrupt && this.output.audibleSince(this.options.now() - heardForMs) && this.output.clear()) {
      this.options.state.bargeIns += 1
      this.observer.observe({ type: 'barge-in', at: this.ledger.seconds() })
    }
  }

  private async callerSpoke(audio: Float32Array, startTime: number, endTime: number): Promise<void> {
    const { stt, agent } = this.options
    if (!stt) {
      await this.addTurn({ role: 'caller', content: '', startTime, endTime, unrecognised: true })
      if (!this.toldTypedOnly) {
        this.toldTypedOnly = true
        await this.agentSays(oneLine(TYPED_ONLY_NOTICE[agent.lang]), 'speech')
      }
      return
    }
    let text: string
    try {
      const wav = writeWavPcm16Mono(int16FromFloat32(audio), CALL_SAMPLE_RATE)
      text = (await stt.transcribe(wav, { language: agent.lang, signal: this.abort.signal })).text.trim()
    } catch (error) {
      if (this.ending) return
      this.send({ event: 'info', code: 'STT_FAILED', message: `Speech recognition failed for a turn: ${(error as Error).message}` })
      await this.addTurn({ role: 'caller', content: '', startTime, endTime, unrecognised: true })
      return
    }
    // Noise the detector took for speech, or a breath: nothing to answer.
    if (!text) return
    await this.callerSaid(text, 'speech', startTime, endTime)
  }

  private async callerSaid(text: string, kind: 'speech' | 'typed' | 'dtmf', startTime: number, endTime: number): Promise<void> {
    if (!text || this.ending) return
    this.send({ event: 'transcription', content: text })
    await this.addTurn({ role: 'caller', content: text, startTime, endTime, ...(kind === 'speech' ? {} : { kind }) })
    const options = this.respondOptions()
    await this.agentSays(this.options.dialogue.respond(text, kind === 'dtmf' ? { ...options, keys: true } : options), 'speech')
  }

  /** Speaks what the dialogue yields, sentence by sentence; the turn is written once heard (or cut). */
  private async agentSays(events: AsyncIterable<DialogueEvent>, kind: 'speech' | 'poke'): Promise<void> {
    if (this.ending) return
    const utterance = this.output.begin()
    let endReason: EndReason | undefined
    try {
      for await (const event of events) {
        if (this.ending) return
        if (event.type === 'say') {
          const text = event.text.trim()
          if (!text) continue
          // Its caption (`answer`) leaves with its first audio.
          this.output.say(utterance, text)
          if (!this.answered) {
            this.answered = true
            void this.ledger.persist('call.answered', { answeredAt: this.options.timestamp() })
          }
        } else {
          endReason = event.reason === 'goodbye' ? 'agent-hangup' : 'smart-end'
        }
      }
    } catch (error) {
      if (this.ending) return
      this.output.clear()
      void this.end('error', { code: 'DIALOGUE_ENGINE_FAILED', message: (error as Error).message })
      return
    }
    this.observer.checkOutcome()
    if (utterance.texts.length > 0) {
      // Still speaking for an observer until the caller's side has played it all.
      this.awaitingHeard = true
      await this.output.finish(utterance)
      this.awaitingHeard = false
      this.taskSpoke = true
      this.observer.checkActivity()
      await this.addAgentTurn(utterance, kind)
    }
    if (endReason && !this.ending) void this.end(endReason)
  }

  private async addAgentTurn(utterance: Utterance, kind: 'speech' | 'poke'): Promise<void> {
    const startTime = ((utterance.startsAt ?? this.options.now()) - this.startedAt) / 1000
    const endTime = ((utterance.endsAt ?? this.options.now()) - this.startedAt) / 1000
    await this.addTurn({
      role: 'agent',
      content: utterance.heardText ?? utterance.texts.join(' '),
      startTime,
      endTime: Math.max(startTime, endTime),
      ...(kind === 'poke' ? { kind } : {}),
      ...(utterance.interrupted ? { interrupted: true } : {}),
    })
  }

  private async addTurn(turn: TranscriptTurn): Promise<void> {
    const written = this.ledger.addTurn(turn)
    this.observer.observe({ type: 'turn', turn: { ...turn } })
    this.observer.checkOutcome()
    await written
  }

  private respondOptions(): RespondOptions {
    return { signal: this.abort.signal, callTool: (name, args) => this.tools.call(name, args) }
  }

  private enqueue(task: () => Promise<void>): void {
    this.queuedWork += 1
    this.observer.checkActivity()
    this.work = this.work
      .then(() => {
        this.taskSpoke = false
        return task()
      })
      .catch((error: unknown) => this.options.onError(error, 'a turn of the call failed'))
      .finally(() => {
        this.queuedWork -= 1
        this.taskSpoke = false
        this.observer.checkActivity()
      })
  }

  /** What the agent is doing now, as an observer is told; undefined before the call begins and once it ends. */
  private activity(): CallActivity | undefined {
    if (!this.begun || this.ending) return undefined
    // A task whose answer was heard only writes its turn now: listening, unless more is queued.
    const answering = this.queuedWork - (this.taskSpoke ? 1 : 0)
    return this.output.speaking || this.awaitingHeard ? 'speaking' : answering > 0 ? 'thinking' : 'listening'
  }

  private send(frame: ServerFrame, onWritten?: () => void): void {
    try {
      this.options.transport.send(frame, onWritten)
    } catch (error) {
      this.options.onError(error, 'a frame could not be sent')
    }
    if (frame.event === 'media' || frame.event === 'clear') this.observer.checkActivity()
  }

  /** This instance was taken for dead and the call's record is held elsewhere now: stop, writing nothing more. */
  private leaseLost(): void {
    this.send({ event: 'info', code: 'CALL_LOST', message: 'This call was taken over: its record is no longer held by this service' })
    this.ending ??= Promise.resolve()
    this.stopWork()
    this.options.transport.close()
    this.resolveDone()
  }

  /** Stops timers, audio, the dialogue and the detector, and answers tools still waiting. */
  private stopWork(): void {
    for (const timer of this.timers) clearTimeout(timer)
    this.abort.abort()
    this.output.close()
    this.caller.close()
    this.tools.close()
  }

  private async finish(reason: EndReason, failure?: CallFailure): Promise<void> {
    const { state } = this.options
    const endedAt = this.options.now()
    state.endedAt = this.options.timestamp()
    this.stopWork()
    // Whatever was being said or answered stops (aborted); its turn is written before the end.
    await Promise.race([this.work, delay(1_000)])
    state.endReason = reason
    if (!failure) {
      await this.extractOutcome()
      this.observer.observe({ type: 'outcome', result: state.outcomeResult, complete: state.outcomeComplete, final: true })
    }
    const usageSeconds = round3((endedAt - this.startedAt) / 1000)
    if (await this.ledger.close(reason, usageSeconds, failure)) {
      this.observer.observe({
        type: 'ended',
        status: failure ? 'FAILED' : 'COMPLETED',
        endReason: reason,
        duration: usageSeconds,
        ...(failure ? { error: failure } : {}),
      })
    }
    this.options.transport.close()
  }

  private async extractOutcome(): Promise<void> {
    const { state, dialogue, limits } = this.options
    const signal = AbortSignal.timeout(limits.outcomeTimeoutMs)
    try {
      const outcome = await Promise.race([
        dialogue.outcome(
          state.transcript.filter((turn) => turn.content).map((turn) => ({ role: turn.role, text: turn.content })),
          signal,
        ),
        new Promise<never>((_, reject) =>
          signal.addEventListener('abort', () => reject(new Error(`The outcome took longer than ${limits.outcomeTimeoutMs} ms`)), {
            once: true,
          }),
        ),
      ])
      state.outcomeResult = outcome.result ?? null
      state.outcomeComplete = this.options.agent.outcomeResponseShape ? outcome.complete : null
      if (outcome.problems?.length) state.outcomeProblems = outcome.problems
    } catch (error) {
      state.outcomeResult = null
      state.outcomeComplete = false
      state.outcomeProblems = [(error as Error).message]
    }
  }
}

async function* oneLine(text: string): AsyncIterable<DialogueEvent> {
  yield { type: 'say', text }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.())
}
