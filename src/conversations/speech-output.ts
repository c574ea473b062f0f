import type { ServerFrame } from '../shared/api/stream-frames'
import { int16ToBase64 } from '../engines/audio/pcm-encoding'
import { CALL_SAMPLE_RATE, type CallAudio } from './call-audio'

/** One thing the agent says: sentences spoken in order, then a mark whose echo means the caller heard it all. */
export interface Utterance {
  readonly id: number
  readonly texts: string[]
  /** When its first audio plays and its last audio ends (ms on the output's clock), once known. */
  startsAt?: number
  endsAt?: number
  /** Cut short by clear() (barge-in, the call's end). */
  interrupted: boolean
  /** Resolves once the caller heard it all (its mark came back), or it was cut short. */
  readonly heard: Promise<void>
}

export interface SpeechOutputOptions {
  audio: Pick<CallAudio, 'speak'>
  voiceId: string
  send: (frame: ServerFrame) => void
  /** Milliseconds, monotonic. */
  now: () => number
  /**
   * How far ahead of playback audio is sent. The SDK plays what it has and flips to
   * "listening" whenever its queue runs dry, so audio must stay well ahead of real time.
   */
  leadMs?: number
  /** Audio per media frame. */
  chunkMs?: number
  /** Each chunk as it is sent, with when it plays (for the recording). */
  onAudio?: (samples: Int16Array, playsAt: number) => void
  /** Synthesis failed for a sentence: it is skipped, the call goes on. */
  onError?: (error: unknown) => void
  /** A client that never echoes marks: the utterance counts as heard this long after its audio ends. */
  markGraceMs?: number
  setTimer?: (callback: () => void, ms: number) => { cancel(): void }
}

type Pending = { kind: 'audio'; utterance: Utterance; samples: Int16Array } | { kind: 'mark'; utterance: Utterance }

interface UtteranceState extends Utterance {
  resolveHeard: () => void
  graceTimer?: { cancel(): void }
}

const defaultTimer = (callback: () => void, ms: number) => {
  const timer = setTimeout(callback, ms)
  return { cancel: () => clearTimeout(timer) }
}

/**
 * The agent's voice on the wire: each sentence synthesised as soon as it is known (so the first
 * audio leaves before the whole answer is written), cut into media frames, and sent ahead of
 * real time by `leadMs`, never further (a barge-in must be able to stop it). Playback is
 * modelled as the SDK does it: a queue that plays continuously while it has audio.
 */
export class SpeechOutput {
  private readonly leadMs: number
  private readonly chunkSamples: number
  private readonly setTimer: NonNullable<SpeechOutputOptions['setTimer']>
  private pending: Pending[] = []
  private synthesis: Promise<void> = Promise.resolve()
  private synthesising = 0
  private abort = new AbortController()
  /** When the audio sent so far ends playing. */
  private queueEnd = 0
  private pumpTimer: { cancel(): void } | undefined
  private nextId = 0
  private readonly open = new Map<string, UtteranceState>()
  private closed = false

  constructor(private readonly options: SpeechOutputOptions) {
    this.leadMs = options.leadMs ?? 600
    this.chunkSamples = Math.round(((options.chunkMs ?? 100) * CALL_SAMPLE_RATE) / 1000)
    this.setTimer = options.setTimer ?? defaultTimer
  }

  /** Whether the agent is talking: audio still plays, waits to be sent, or is being synthesised. */
  get speaking(): boolean {
    return this.synthesising > 0 || this.pending.length > 0 || this.queueEnd > this.options.now()
  }

  /** When the audio sent so far ends playing (ms). */
  get playbackEndsAt(): number {
    return this.queueEnd
  }

  begin(): Utterance {
    let resolveHeard!: () => void
    const heard = new Promise<void>((resolve) => (resolveHeard = resolve))
    const utterance: UtteranceState = { id: (this.nextId += 1), texts: [], interrupted: false, heard, resolveHeard }
    return utterance
  }

  /** Speaks one more sentence of `utterance`, after whatever is queued. */
  say(utterance: Utterance, text: string): void {
    if (this.closed) return
    utterance.texts.push(text)
    const signal = this.abort.signal
    this.synthesising += 1
    const synthesised = this.options.audio.speak(text, this.options.voiceId, signal).catch((error: unknown) => {
      if (!signal.aborted) this.options.onError?.(error)
      return undefined
    })
    // Synthesis of the next sentence overlaps the playing of this one; sending keeps their order.
    this.synthesis = this.synthesis.then(async () => {
      const samples = await synthesised
      if (signal.aborted) return // clear() or close() already forgot this sentence
      this.synthesising -= 1
      if (!samples) return
      for (let start = 0; start < samples.length; start += this.chunkSamples) {
        this.pending.push({ kind: 'audio', utterance, samples: samples.subarray(start, start + this.chunkSamples) })
      }
      this.pump()
    })
  }

  /** Ends `utterance`: its mark follows its audio. Resolves when the caller heard it all or it was cut. */
  finish(utterance: Utterance): Promise<void> {
    const state = utterance as UtteranceState
    if (this.closed) {
      state.resolveHeard()
      return state.heard
    }
    const signal = this.abort.signal
    this.synthesis = this.synthesis.then(() => {
      if (signal.aborted || this.closed) return state.resolveHeard()
      this.pending.push({ kind: 'mark', utterance })
      this.pump()
    })
    return state.heard
  }

  /** A mark came back: the caller heard everything up to it. */
  markHeard(name: string): void {
    const utterance = this.open.get(name)
    if (!utterance) return
    this.open.delete(name)
    utterance.graceTimer?.cancel()
    utterance.resolveHeard()
  }

  /**
   * Stops talking at once: drops what was not sent, stops synthesis, and tells the SDK to drop
   * what it queued (`clear`). Answers whether anything was cut.
   */
  clear(): boolean {
    const now = this.options.now()
    const cut = this.speaking
    this.abort.abort()
    this.abort = new AbortController()
    const cutUtterances = new Set<UtteranceState>([...this.pending.map((item) => item.utterance as UtteranceState), ...this.open.values()])
    this.pending = []
    this.synthesis = Promise.resolve()
    this.synthesising = 0
    this.pumpTimer?.cancel()
    this.pumpTimer = undefined
    for (const utterance of cutUtterances) {
      utterance.interrupted = utterance.interrupted || (utterance.endsAt ?? Number.POSITIVE_INFINITY) > now
      if (utterance.endsAt === undefined || utterance.endsAt > now) utterance.endsAt = Math.max(utterance.startsAt ?? now, now)
      utterance.graceTimer?.cancel()
      utterance.resolveHeard()
    }
    this.open.clear()
    this.queueEnd = Math.min(this.queueEnd, now)
    if (cut && !this.closed) this.options.send({ event: 'clear' })
    return cut
  }

  /** No more output (the call ended): everything still queued is dropped, quietly. */
  close(): void {
    if (this.closed) return
    this.abort.abort()
    this.closed = true
    this.pumpTimer?.cancel()
    for (const item of this.pending) (item.utterance as UtteranceState).resolveHeard()
    for (const utterance of this.open.values()) {
      utterance.graceTimer?.cancel()
      utterance.resolveHeard()
    }
    this.pending = []
    this.open.clear()
  }

  /** Sends what is due: audio until it is `leadMs` ahead of playback, and the marks that follow it. */
  private pump(): void {
    this.pumpTimer?.cancel()
    this.pumpTimer = undefined
    if (this.closed) return
    const now = this.options.now()
    for (let item = this.pending[0]; item; item = this.pending[0]) {
      if (item.kind === 'mark') {
        this.pending.shift()
        this.sendMark(item.utterance as UtteranceState)
        continue
      }
      const playsAt = Math.max(this.queueEnd, now)
      if (playsAt - now >= this.leadMs) break
      this.pending.shift()
      const utterance = item.utterance
      utterance.startsAt ??= playsAt
      this.queueEnd = playsAt + (item.samples.length * 1000) / CALL_SAMPLE_RATE
      utterance.endsAt = this.queueEnd
      this.options.send({ event: 'media', media: { payload: int16ToBase64(item.samples) } })
      this.options.onAudio?.(item.samples, playsAt)
    }
    if (this.pending.length > 0) {
      const wait = Math.max(10, this.queueEnd - this.leadMs - now)
      this.pumpTimer = this.setTimer(() => this.pump(), wait)
    }
  }

  private sendMark(utterance: UtteranceState): void {
    const name = `utterance-${utterance.id}`
    utterance.startsAt ??= Math.max(this.queueEnd, this.options.now())
    utterance.endsAt ??= utterance.startsAt
    this.open.set(name, utterance)
    this.options.send({ event: 'mark', mark: { name } })
    const grace = Math.max(0, (utterance.endsAt ?? 0) - this.options.now()) + (this.options.markGraceMs ?? 2_000)
    utterance.graceTimer = this.setTimer(() => this.markHeard(name), grace)
  }
}
