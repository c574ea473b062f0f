import type { EndReason, ToolCallRecord, TranscriptTurn } from '../shared/api/conversations'
import type { JobErrorCode } from '../shared/api/job-error-codes'
import type { CallEvent } from '../shared/api/webhooks'
import type { ClientFrame, ServerFrame } from '../shared/api/stream-frames'
import type { DialogueEvent, RespondOptions, ToolResult } from '../engines/dialogue/dialogue-engine'
import { present } from '../shared/present'
import { float32FromBase64, float32FromInt16, int16FromBase64, int16FromFloat32, joinSamples } from '../engines/audio/pcm-encoding'
import { writeWavPcm16Mono } from '../engines/audio/wav-file'
import { CALL_SAMPLE_RATE, type TurnDetector } from './call-audio'
import type { CallActivity, CallObservation, CallSessionOptions } from './call-session-options'
import { CallRecording } from './call-recording'
import { CallerSpeechCapture } from './caller-speech-capture'
import { SpeechOutput, type Utterance } from './speech-output'

export type { CallActivity, CallEventWriter, CallLimits, CallObservation, CallSessionOptions, CallTransport } from './call-session-options'

/** Caller audio kept for the gender estimate: a few seconds of speech are plenty. */
const GENDER_SAMPLE_LIMIT = 6 * CALL_SAMPLE_RATE
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

/**
 * One live call: the caller's frames in, the agent's voice out. Turn-taking from a voice
 * activity detector; each finished caller turn is recognised (or typed), answered by the
 * dialogue engine, spoken sentence by sentence; pokes after the agent's silence threshold;
 * barge-in when the agent may be interrupted; tools round-tripped through the page. Every
 * finished turn is written (with its webhook), so a call cut off by a crash keeps what was said.
 */
export class CallSession {
  private readonly output: SpeechOutput
  private readonly recording = new CallRecording()
  private readonly startedAt: number
  private readonly abort = new AbortController()
  private detector: TurnDetector | undefined
  private begun = false
  private ending: Promise<void> | undefined
  /** Dialogue work in order: greeting, answers, pokes. */
  private work: Promise<void> = Promise.resolve()
  private queuedWork = 0
  /** Writes in order (progress and events). */
  private writes: Promise<unknown> = Promise.resolve()
  private readonly caller: CallerSpeechCapture
  private silentMs = 0
  /** The caller's speech so far, for the gender estimate (up to GENDER_SAMPLE_LIMIT). */
  private voiceHeard: Float32Array = new Float32Array(0)
  private answered = false
  /** The caller was told, once, that only typed answers are understood (no speech recognition). */
  private toldTypedOnly = false
  private toolCounter = 0
  private readonly pendingTools = new Map<string, (result: ToolResult) => void>()
  private readonly timers: ReturnType<typeof setTimeout>[] = []
  private readonly done: Promise<void>
  private resolveDone!: () => void
  /** For an observer: what it was last told. */
  private activity: CallActivity | undefined
  private awaitingHeard = false
  /** The task running now has said its answer and it was heard. */
  private taskSpoke = false
  private outcomeSoFar: string | undefined

  constructor(private readonly options: CallSessionOptions) {
    this.startedAt = options.now()
    this.caller = new CallerSpeechCapture(this.recording, this.startedAt)
    this.done = new Promise((resolve) => (this.resolveDone = resolve))
    this.output = new SpeechOutput({
      audio: options.audio,
      voiceId: options.agent.voiceId,
      now: options.now,
      send: (frame, onWritten) => this.send(frame, onWritten),
      onAudio: (samples, playsAt) => this.recording.add(samples, playsAt - this.startedAt),
      onError: (error) => options.onError(error, 'the agent voice failed on a sentence'),
    })
    void options.audio.turnDetector().then(
      (detector) => (this.detector = detector),
      (error: unknown) => options.onError(error, 'the turn detector could not start'),
    )
    this.timers.push(setTimeout(() => this.begin(), options.limits.startGraceMs))
    this.timers.push(setTimeout(() => void this.end('max-duration'), options.limits.maxDurationMs))
    const renew = setInterval(() => void this.persist(), Math.max(1_000, Math.floor(options.limits.leaseMs / 3)))
    this.timers.push(renew)
    if (options.transport.observe) this.timers.push(setInterval(() => this.updateActivity(), ACTIVITY_CHECK_MS))
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
          return this.send({ event: 'info', code: 'INVALID_FRAME', message: 'A media payload must be base64 Float32 LE samples (a multiple of 4 bytes)' })
        }
        return this.hear(samples)
      }
      case 'mark':
        this.output.markHeard(frame.mark.name)
        return this.updateActivity()
      case 'tools_response':
        for (const entry of frame.tools_response) this.pendingTools.get(entry.id)?.({ ok: true, response: entry.function.response })
        return
      case 'text':
        this.begin()
        this.silentMs = 0
        return this.enqueue(() => this.callerSaid(frame.content.trim(), 'typed', this.seconds(), this.seconds()))
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
    this.hear(samples)
  }

  /** The connection closed from the caller's side. */
  transportClosed(): void {
    void this.end('caller-hangup')
  }

  /**
   * Ends the call once: stops audio and dialogue, extracts the outcome, stores the recording,
   * and writes the end (COMPLETED, or FAILED with `failure`) with its `call.ended` webhook.
   */
  end(reason: EndReason, failure?: { code: JobErrorCode; message: string }): Promise<void> {
    this.ending ??= this.finish(reason, failure).finally(() => this.resolveDone())
    return this.ending
  }

  private begin(): void {
    if (this.begun || this.ending) return
    this.begun = true
    this.reportOutcomeSoFar()
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

  private hear(samples: Float32Array): void {
    this.caller.place(samples, this.options.now())
    for (const event of this.detector?.push(samples) ?? []) {
      if (event.type === 'speech-start') this.callerStartedSpeaking()
      else this.callerStoppedSpeaking()
    }
    if (this.caller.keep(samples)) return
    this.countSilence((samples.length * 1000) / CALL_SAMPLE_RATE)
  }

  private callerStartedSpeaking(): void {
    this.silentMs = 0
    this.caller.startTurn()
    if (this.options.agent.interrupt && this.output.speaking && this.output.clear()) {
      this.options.state.bargeIns += 1
      this.observe({ type: 'barge-in', at: this.seconds() })
    }
  }

  private callerStoppedSpeaking(): void {
    const turn = this.caller.endTurn()
    if (!turn) return
    this.learnGender(turn.audio)
    this.enqueue(() => this.callerSpoke(turn.audio, turn.startTime, turn.endTime))
  }

  /** Silence accrues only over frames the caller sends while nobody speaks and nothing is being answered. */
  private countSilence(ms: number): void {
    if (!this.begun || this.output.speaking || this.queuedWork > 0) {
      this.silentMs = 0
      return
    }
    this.silentMs += ms
    const threshold = this.options.agent.silenceThreshold * 1000
    if (this.silentMs < threshold) return
    this.silentMs = 0
    const pokes = this.options.agent.pokeMessages
    const state = this.options.state
    const message = pokes[state.pokes]
    if (message !== undefined) {
      state.pokes += 1
      this.observe({ type: 'poke', at: this.seconds(), content: message })
      this.enqueue(() => this.agentSays(oneLine(message), 'poke'))
    } else if (pokes.length > 0) {
      void this.end('silence')
    }
  }

  private learnGender(audio: Float32Array): void {
    if (!this.options.agent.tools.genderDetection || this.voiceHeard.length >= GENDER_SAMPLE_LIMIT) return
    this.voiceHeard = joinSamples([this.voiceHeard, audio], (length) => new Float32Array(length))
    const gender = this.options.audio.estimateGender(this.voiceHeard, CALL_SAMPLE_RATE)
    if (gender && gender !== this.options.state.callerGender) {
      this.options.state.callerGender = gender
      this.options.dialogue.setCallerTraits({ gender })
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

  private async callerSaid(text: string, kind: 'speech' | 'typed', startTime: number, endTime: number): Promise<void> {
    if (!text || this.ending) return
    this.send({ event: 'transcription', content: text })
    await this.addTurn({ role: 'caller', content: text, startTime, endTime, ...(kind === 'typed' ? { kind } : {}) })
    await this.agentSays(this.options.dialogue.respond(text, this.respondOptions()), 'speech')
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
            void this.persist('call.answered', { answeredAt: this.options.timestamp() })
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
    this.reportOutcomeSoFar()
    if (utterance.texts.length > 0) {
      // Still speaking for an observer until the caller's side has played it all.
      this.awaitingHeard = true
      await this.output.finish(utterance)
      this.awaitingHeard = false
      this.taskSpoke = true
      this.updateActivity()
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
    turn.startTime = round3(turn.startTime)
    turn.endTime = round3(turn.endTime)
    this.options.state.transcript.push(turn)
    this.observe({ type: 'turn', turn: { ...turn } })
    this.reportOutcomeSoFar()
    await this.persist('transcription.update', { turn })
  }

  private respondOptions(): RespondOptions {
    return { signal: this.abort.signal, callTool: (name, args) => this.callTool(name, args) }
  }

  /** Runs a tool in the caller's page: a `tools` frame, then its `tools_response`, within the time limit. */
  private async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    if (this.ending) return { ok: false, error: 'The call has ended' }
    if (!this.options.tools.some((tool) => tool.name === name)) return { ok: false, error: `The page offered no tool named ${name}` }
    const id = `call_${(this.toolCounter += 1)}`
    const record: ToolCallRecord = { id, name, arguments: args, at: this.seconds() }
    this.options.state.toolCalls.push(record)
    this.observe({ type: 'tool-call', id, name, arguments: args, at: record.at })
    const result = await new Promise<ToolResult>((resolve) => {
      const timer = setTimeout(() => resolve({ ok: false, error: `The page did not answer within ${this.options.limits.toolTimeoutMs} ms` }), this.options.limits.toolTimeoutMs)
      this.pendingTools.set(id, (answer) => {
        clearTimeout(timer)
        resolve(answer)
      })
      this.send({ event: 'tools', content: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] })
    })
    this.pendingTools.delete(id)
    if (result.ok) record.response = result.response
    else record.error = result.error
    this.observe({ type: 'tool-result', call: { ...record } })
    await this.persist('tool.executed', { toolCall: record })
    return result
  }

  private enqueue(task: () => Promise<void>): void {
    this.queuedWork += 1
    this.updateActivity()
    this.work = this.work
      .then(() => {
        this.taskSpoke = false
        return task()
      })
      .catch((error: unknown) => this.options.onError(error, 'a turn of the call failed'))
      .finally(() => {
        this.queuedWork -= 1
        this.taskSpoke = false
        this.updateActivity()
      })
  }

  private observe(observation: CallObservation): void {
    const observe = this.options.transport.observe
    if (!observe) return
    try {
      observe.call(this.options.transport, observation)
    } catch (error) {
      this.options.onError(error, 'an observer of the call failed')
    }
  }

  /** Tells an observer what the agent is doing now, when it changed. */
  private updateActivity(): void {
    if (!this.options.transport.observe || !this.begun || this.ending) return
    // A task whose answer was heard only writes its turn now: listening, unless more is queued.
    const answering = this.queuedWork - (this.taskSpoke ? 1 : 0)
    const activity: CallActivity = this.output.speaking || this.awaitingHeard ? 'speaking' : answering > 0 ? 'thinking' : 'listening'
    if (activity === this.activity) return
    this.activity = activity
    this.observe({ type: 'activity', activity })
  }

  /** Tells an observer the outcome so far when it changed (engines that know it without a model call: see DialogueSession.outcomeSoFar). */
  private reportOutcomeSoFar(): void {
    const { dialogue, agent, transport } = this.options
    if (!transport.observe || !dialogue.outcomeSoFar || !agent.outcomeResponseShape || this.ending) return
    const outcome = dialogue.outcomeSoFar()
    const text = JSON.stringify(outcome)
    if (text === this.outcomeSoFar) return
    const first = this.outcomeSoFar === undefined
    this.outcomeSoFar = text
    // The first look is the empty outcome the panel starts from: only changes are news.
    if (!first) this.observe({ type: 'outcome', result: outcome.result, complete: outcome.complete, final: false })
  }

  private seconds(): number {
    return round3((this.options.now() - this.startedAt) / 1000)
  }

  private send(frame: ServerFrame, onWritten?: () => void): void {
    try {
      this.options.transport.send(frame, onWritten)
    } catch (error) {
      this.options.onError(error, 'a frame could not be sent')
    }
    if (frame.event === 'media' || frame.event === 'clear') this.updateActivity()
  }

  private progress() {
    const usageSeconds = round3((this.options.now() - this.startedAt) / 1000)
    const state = this.options.state
    const text = state.transcript
      .filter((turn) => turn.content)
      .map((turn) => `${turn.role === 'agent' ? 'Agent' : 'Caller'}: ${turn.content}`)
      .join('\n')
    return { text, jobResponse: state as unknown as Record<string, unknown>, usageSeconds, totalCost: this.options.costOf(usageSeconds) }
  }

  /**
   * Writes the call's progress (extending its lease), with an agent webhook when given, in one
   * transaction. A call whose lease was lost (this instance was taken for dead) stops here.
   * Once the call's end is written nothing more is (the save finds it no longer IN_PROGRESS).
   */
  private persist(event?: CallEvent, data: Record<string, unknown> = {}): Promise<unknown> {
    this.writes = this.writes.then(async () => {
      const { job, agent, owner, limits } = this.options
      try {
        let queued = false
        const kept = await this.options.store.transaction(async (tx) => {
          const saved = await tx.conversations.save(job.id, owner, this.progress(), this.options.now() + limits.leaseMs, this.options.timestamp())
          if (saved && event) queued = await this.options.writeEvent(tx, { job, agent }, event, data)
          return saved
        })
        if (queued) this.options.webhookQueued()
        // A turn, a tool or the answer: open views (the monitor's detail) read the call again; a lease renewal alone changes nothing they show.
        if (kept && event && !this.ending) this.options.changed({ ...job, status: 'IN_PROGRESS' })
        if (!kept && !this.ending) {
          this.send({ event: 'info', code: 'CALL_LOST', message: 'This call was taken over: its record is no longer held by this service' })
          this.ending ??= Promise.resolve()
          this.stopWork()
          this.options.transport.close()
          this.resolveDone()
        }
      } catch (error) {
        this.options.onError(error, 'the call could not be saved')
      }
    })
    return this.writes
  }

  /** Stops timers, audio, the dialogue and the detector, and answers tools still waiting. */
  private stopWork(): void {
    for (const timer of this.timers) clearTimeout(timer)
    this.abort.abort()
    this.output.close()
    this.detector?.dispose()
    for (const resolve of this.pendingTools.values()) resolve({ ok: false, error: 'The call has ended' })
  }

  private async finish(reason: EndReason, failure?: { code: JobErrorCode; message: string }): Promise<void> {
    const { state, job } = this.options
    const endedAt = this.options.now()
    state.endedAt = this.options.timestamp()
    this.stopWork()
    // Whatever was being said or answered stops (aborted); its turn is written before the end.
    await Promise.race([this.work, delay(1_000)])
    state.endReason = reason
    if (!failure) {
      await this.extractOutcome()
      this.observe({ type: 'outcome', result: state.outcomeResult, complete: state.outcomeComplete, final: true })
    }
    const usageSeconds = round3((endedAt - this.startedAt) / 1000)
    let endWritten!: () => void
    const recording = await this.options.recordings.store(
      job.id,
      present(job.mediaFile, `the recording's file of call ${job.id}`),
      this.recording.toWav(usageSeconds),
      new Promise((resolve) => (endWritten = resolve)),
    )
    const recordingSaved = recording === 'stored'
    // The conversation tells a recording that waits for room (or was lost to a full disk) instead of a URL that answers 404.
    if (recording === 'waiting: disk full' || recording === 'lost: disk full') state.recording = recording
    try {
      await this.writeEnd(reason, usageSeconds, recordingSaved, failure)
    } finally {
      endWritten()
    }
    this.options.transport.close()
  }

  /**
   * Writes the end (COMPLETED, or FAILED with `failure`) with its `call.ended` webhook, in one
   * transaction; on a full disk, once there is room again, as a job's end would be.
   */
  private async writeEnd(reason: EndReason, usageSeconds: number, recordingSaved: boolean, failure?: { code: JobErrorCode; message: string }): Promise<void> {
    const { diskFull, stopping } = this.options
    await this.writes
    for (;;) {
      try {
        return await this.writeEndOnce(reason, usageSeconds, recordingSaved, failure)
      } catch (error) {
        if (diskFull.report(error) && !stopping.aborted) {
          await diskFull.whenSpaceIsBack(stopping)
          if (!stopping.aborted) continue
        }
        // The lease runs out and the runner ends the call as interrupted, keeping the last saved transcript.
        this.options.onError(error, 'the end of the call could not be written')
        return
      }
    }
  }

  private async writeEndOnce(reason: EndReason, usageSeconds: number, recordingSaved: boolean, failure?: { code: JobErrorCode; message: string }): Promise<void> {
    const { state, job, agent, owner } = this.options
    const progress = { ...this.progress(), usageSeconds, totalCost: this.options.costOf(usageSeconds) }
    let queued = false
    const ended = await this.options.store.transaction(async (tx) => {
      if (!(await tx.conversations.save(job.id, owner, progress, this.options.now() + this.options.limits.leaseMs, this.options.timestamp()))) return false
      const at = this.options.timestamp()
      const written = failure
        ? await tx.jobs.fail(job.id, owner, failure.code, failure.message, at)
        : await tx.jobs.complete(job.id, owner, { jobResponse: progress.jobResponse, usageSeconds, totalCost: progress.totalCost }, at)
      if (!written) return false
      queued = await this.options.writeEvent(tx, { job, agent }, 'call.ended', {
        status: failure ? 'FAILED' : 'COMPLETED',
        endReason: reason,
        duration: usageSeconds,
        transcription: state.transcript,
        outcomeResult: state.outcomeResult,
        outcomeComplete: state.outcomeComplete,
        callerGender: state.callerGender,
        ...(failure ? { error: failure } : {}),
        recordingSaved,
      })
      return true
    })
    if (queued) this.options.webhookQueued()
    if (ended) {
      this.options.changed({ ...job, status: failure ? 'FAILED' : 'COMPLETED' })
      this.observe({ type: 'ended', status: failure ? 'FAILED' : 'COMPLETED', endReason: reason, duration: usageSeconds, ...(failure ? { error: failure } : {}) })
    }
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
        new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error(`The outcome took longer than ${limits.outcomeTimeoutMs} ms`)), { once: true })),
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

function round3(value: number): number {
  return Math.round(value * 1000) / 1000
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref?.())
}
