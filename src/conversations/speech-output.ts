import type { Pronunciation } from '../engines/tts/pronunciations'
import type { ServerFrame } from '../shared/api/stream-frames'
import { int16ToBase64 } from '../engines/audio/pcm-encoding'
import { CALL_SAMPLE_RATE, type CallAudio } from './call-audio'
import { timeWords, wordsHeard, type TimedWord } from './word-timing'

/** One thing the agent says: sentences spoken in order, then a mark whose echo means the caller heard it all. */
export interface Utterance {
  readonly id: number
  readonly texts: string[]
  /** When its first audio plays and its last audio ends (ms on the output's clock), once known. */
  startsAt?: number
  endsAt?: number
  /** Cut short by clear() (barge-in, the call's end) before its audio had all played. */
  interrupted: boolean
  /** Once cut short: the words the caller heard of it, as written (whole words; '' when none). */
  heardText?: string
  /** Resolves once the caller heard it all (its mark came back), or it was cut short. */
  readonly heard: Promise<void>
}

export interface SpeechOutputOptions {
  audio: Pick<CallAudio, 'speak'>
  voiceId: string
  /** The entries of the agent's voice dictionaries, applied to every sentence. */
  pronunciations?: readonly Pronunciation[]
  /**
   * Sends a frame; a transport that can calls `onWritten` once the frame left for the socket
   * (after compression and the socket's queue): audio then counts as playing from there, not
   * from when it was handed over.
   */
  send: (frame: ServerFrame, onWritten?: () => void) => void
  /** Milliseconds, monotonic. */
  now: () => number
  /**
   * How far ahead of playback audio is kept. The SDK plays what it has and flips to
   * "listening" whenever its queue runs dry, so audio must stay well ahead of real time.
   */
  leadMs?: number
  /**
   * How far ahead audio may go while the utterance's next sentence is still being synthesised:
   * the client's queue then covers the synthesis, however long the engine's queue is.
   */
  coverLeadMs?: number
  /** Audio per media frame. */
  chunkMs?: number
  /** The agent's audio as it plays (for the recording): only what was played, with when it played. */
  onAudio?: (samples: Int16Array, playsAt: number) => void
  /** Synthesis failed for a sentence: it is skipped (its caption is still sent), the call goes on. */
  onError?: (error: unknown) => void
  /** A client that never echoes marks: the utterance counts as heard this long after its audio ends. */
  markGraceMs?: number
  setTimer?: (callback: () => void, ms: number) => { cancel(): void }
}

type Pending =
  | { kind: 'audio'; utterance: UtteranceState; samples: Int16Array; offset: number; caption?: string }
  | { kind: 'caption'; utterance: UtteranceState; text: string }
  | { kind: 'mark'; utterance: UtteranceState }

/** A sentence whose audio is queued: its words and where they lie in the utterance's audio. */
interface SentenceAudio {
  words: TimedWord[]
  /** Samples of the utterance before this sentence. */
  offset: number
}

/** A media frame sent: where it lies in its utterance's audio and when it plays. */
interface SentChunk {
  /** The utterance's id. */
  owner: number
  offset: number
  samples: Int16Array
  /** When it plays: modelled when handed over, corrected once the transport says it was written. */
  playsAt: number
  written: boolean
}

interface UtteranceState extends Utterance {
  resolveHeard: () => void
  graceTimer?: { cancel(): void }
  sentences: SentenceAudio[]
  queuedSamples: number
  sent: SentChunk[]
  markSent: boolean
}

const defaultTimer = (callback: () => void, ms: number) => {
  const timer = setTimeout(callback, ms)
  return { cancel: () => clearTimeout(timer) }
}

/** How long a clear's write is waited for before what the caller heard is judged anyway. */
const CLEAR_WRITE_WAIT_MS = 1_000
/** The most a mark's late echo may shift the estimate of what the caller heard (a stalled page says nothing about the next utterance). */
const MAX_PLAYBACK_LAG_MS = 1_000

/**
 * The agent's voice on the wire: each sentence synthesised as soon as it is known (so the first
 * audio leaves before the whole answer is written, and the next sentence is made while this one
 * plays), cut into media frames, each sentence's caption (`answer`) sent right after its first
 * frame. Paced by the audio clock: playback is modelled as the SDK does it, a queue that plays
 * continuously while it has audio, and every pump sends what keeps that queue `leadMs` ahead of
 * now (more while the next sentence is still being made), so a timer that fires late sends more,
 * never drifts. A barge-in (`clear`) keeps only the words whose audio had played.
 */
export class SpeechOutput {
  private readonly leadMs: number
  private readonly coverLeadMs: number
  private readonly chunkSamples: number
  private readonly setTimer: NonNullable<SpeechOutputOptions['setTimer']>
  private pending: Pending[] = []
  private synthesis: Promise<void> = Promise.resolve()
  private synthesising = 0
  private abort = new AbortController()
  /** When the audio sent so far ends playing: the client's playback clock. */
  private queueEnd = 0
  /** When the audio playing now began without a break (ms); undefined while nothing plays. */
  private stretchStartsAt: number | undefined
  private pumpTimer: { cancel(): void } | undefined
  private nextId = 0
  private readonly open = new Map<string, UtteranceState>()
  /** Utterances given a sentence and not yet over: a clear cuts them even before any of their audio exists. */
  private readonly unfinished = new Set<UtteranceState>()
  /** Sent audio not yet handed to onAudio (it is handed over once played, so cut audio never is). */
  private unrecorded: SentChunk[] = []
  /** How much later than modelled the client played, from its last mark echo (ms). */
  private playbackLag = 0
  /** The transport tells when frames were written: audio not yet written has not reached the client. */
  private writesAcknowledged = false
  /** When the audio written so far ends playing, by the write times. */
  private writtenEnd = 0
  private closed = false

  constructor(private readonly options: SpeechOutputOptions) {
    this.leadMs = options.leadMs ?? 600
    this.coverLeadMs = Math.max(this.leadMs, options.coverLeadMs ?? 2_000)
    this.chunkSamples = Math.round(((options.chunkMs ?? 100) * CALL_SAMPLE_RATE) / 1000)
    this.setTimer = options.setTimer ?? defaultTimer
  }

  /** Whether the agent is talking: audio still plays, waits to be sent, or is being synthesised. */
  get speaking(): boolean {
    return this.synthesising > 0 || this.pending.length > 0 || this.queueEnd > this.options.now()
  }

  /**
   * Whether the caller can hear the agent now: audio of what it is saying has started playing
   * and has not all played. Speech before the first audio (while a greeting or answer is still
   * being made) interrupts nothing: a caller cannot talk over what they have not heard yet.
   */
  get audible(): boolean {
    const now = this.options.now()
    if (this.queueEnd <= now) return false
    for (const utterance of [...this.unfinished, ...this.open.values()])
      if (utterance.startsAt !== undefined && utterance.startsAt <= now && (utterance.endsAt ?? now) > now) return true
    return false
  }

  /** Whether the caller can hear the agent now, and could without a break since `at` (ms, this output's clock). */
  audibleSince(at: number): boolean {
    return this.audible && this.stretchStartsAt !== undefined && this.stretchStartsAt <= at
  }

  /** When the audio sent so far ends playing (ms). */
  get playbackEndsAt(): number {
    return this.queueEnd
  }

  begin(): Utterance {
    let resolveHeard!: () => void
    const heard = new Promise<void>((resolve) => (resolveHeard = resolve))
    const utterance: UtteranceState = {
      id: (this.nextId += 1),
      texts: [],
      interrupted: false,
      heard,
      resolveHeard,
      sentences: [],
      queuedSamples: 0,
      sent: [],
      markSent: false,
    }
    return utterance
  }

  /** Speaks one more sentence of `utterance`, after whatever is queued; its caption leaves with its first audio. */
  say(utterance: Utterance, text: string): void {
    if (this.closed) return
    const state = utterance as UtteranceState
    state.texts.push(text)
    this.unfinished.add(state)
    const signal = this.abort.signal
    this.synthesising += 1
    const synthesised = this.options.audio
      .speak(text, this.options.voiceId, signal, this.options.pronunciations)
      .catch((error: unknown) => {
        if (!signal.aborted) this.options.onError?.(error)
        return undefined
      })
    // Synthesis of the next sentence overlaps the playing of this one; sending keeps their order.
    this.synthesis = this.synthesis.then(async () => {
      const samples = await synthesised
      if (signal.aborted) return // clear() or close() already forgot this sentence
      this.synthesising -= 1
      if (samples && samples.length > 0) this.queueSentence(state, text, samples)
      else this.pending.push({ kind: 'caption', utterance: state, text })
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
      this.pending.push({ kind: 'mark', utterance: state })
      this.pump()
    })
    return state.heard
  }

  /** A mark came back from the client: the caller heard everything up to it. */
  markHeard(name: string): void {
    const utterance = this.open.get(name)
    if (!utterance) return
    // The echo tells how far behind the model the client really plays: words heard at a barge-in are judged with it.
    const lag = this.options.now() - (utterance.endsAt ?? this.options.now())
    this.playbackLag = Math.max(0, Math.min(MAX_PLAYBACK_LAG_MS, lag))
    this.settle(name)
  }

  /**
   * Stops talking at once: drops what was not sent, stops synthesis, and tells the SDK to drop
   * what it queued (`clear`). Answers whether anything was cut; a second clear with nothing
   * playing sends nothing. What the caller heard of the cut utterance is judged when the `clear`
   * was written (it follows the audio still on its way, which the client plays until then), and
   * told in an `info` frame `AGENT_INTERRUPTED` with `heard`.
   */
  clear(): boolean {
    const now = this.options.now()
    const cut = this.speaking
    const utterances = this.stop()
    this.queueEnd = Math.min(this.queueEnd, now)
    this.stretchStartsAt = undefined
    if (!cut || this.closed) {
      this.cutShort(utterances, now)
      return cut
    }
    let judged = false
    const judge = () => {
      if (judged) return
      judged = true
      timer.cancel()
      const heard = this.cutShort(utterances, this.options.now())
      if (heard !== undefined && !this.closed) {
        this.options.send({
          event: 'info',
          code: 'AGENT_INTERRUPTED',
          message: 'The caller spoke over the agent: its turn keeps only the words they heard',
          heard,
        })
      }
    }
    const timer = this.setTimer(judge, CLEAR_WRITE_WAIT_MS)
    this.options.send({ event: 'clear' }, judge)
    // A transport that never told of a write: the clear reaches the client as it is sent.
    if (!this.writesAcknowledged) judge()
    return cut
  }

  /** No more output (the call ended): everything still queued is dropped, quietly; what played is recorded and kept. */
  close(): void {
    if (this.closed) return
    const utterances = this.stop()
    this.cutShort(utterances, this.options.now())
    this.closed = true
  }

  /** Stops synthesis and sending; answers the utterances not over yet. */
  private stop(): UtteranceState[] {
    this.abort.abort()
    this.abort = new AbortController()
    const utterances = new Set<UtteranceState>([...this.unfinished, ...this.pending.map((item) => item.utterance), ...this.open.values()])
    this.unfinished.clear()
    this.open.clear()
    this.pending = []
    this.synthesis = Promise.resolve()
    this.synthesising = 0
    this.pumpTimer?.cancel()
    this.pumpTimer = undefined
    for (const utterance of utterances) utterance.graceTimer?.cancel()
    return [...utterances].sort((a, b) => a.id - b.id)
  }

  /**
   * Ends `utterances` as of `now`: those whose audio had not all played are interrupted and keep
   * the words heard; only their played audio is recorded. Answers the words heard of the last one cut.
   */
  private cutShort(utterances: UtteranceState[], now: number): string | undefined {
    const heardAt = now - this.playbackLag
    if (!this.closed) this.record(heardAt)
    const ids = new Set(utterances.map((utterance) => utterance.id))
    this.unrecorded = this.unrecorded.filter((chunk) => !ids.has(chunk.owner))
    let heardText: string | undefined
    for (const utterance of utterances) {
      // Played to its end only when all its audio was sent (its mark too) and had played by then.
      if (!utterance.markSent || (utterance.endsAt ?? Number.POSITIVE_INFINITY) > heardAt) {
        utterance.interrupted = true
        utterance.heardText ??= this.heardTextOf(utterance, heardAt)
        heardText = utterance.heardText
      }
      if (utterance.endsAt === undefined || utterance.endsAt > now) utterance.endsAt = Math.max(utterance.startsAt ?? now, now)
      utterance.resolveHeard()
    }
    return heardText
  }

  private queueSentence(utterance: UtteranceState, text: string, samples: Int16Array): void {
    const offset = utterance.queuedSamples
    utterance.sentences.push({ words: timeWords(text, samples, this.options.voiceId), offset })
    utterance.queuedSamples += samples.length
    for (let start = 0; start < samples.length; start += this.chunkSamples) {
      const chunk = samples.subarray(start, start + this.chunkSamples)
      this.pending.push({ kind: 'audio', utterance, samples: chunk, offset: offset + start, ...(start === 0 ? { caption: text } : {}) })
    }
  }

  /** Sends what is due: captions, audio until it is the target lead ahead of playback, and the marks that follow it. */
  private pump(): void {
    this.pumpTimer?.cancel()
    this.pumpTimer = undefined
    if (this.closed) return
    const now = this.options.now()
    this.record(now - this.playbackLag)
    // A queue that ran dry restarts at the next frame's arrival, as the SDK's does.
    if (this.queueEnd < now) {
      this.queueEnd = now
      this.stretchStartsAt = undefined
    }
    for (let item = this.pending[0]; item; item = this.pending[0]) {
      if (item.kind === 'mark') {
        this.pending.shift()
        this.sendMark(item.utterance)
        continue
      }
      if (item.kind === 'caption') {
        this.pending.shift()
        this.options.send({ event: 'answer', content: item.text })
        continue
      }
      if (this.queueEnd - now >= this.targetLead()) break
      this.pending.shift()
      this.sendAudio(item)
    }
    if (this.pending.length > 0) {
      const wait = Math.max(10, this.queueEnd - this.targetLead() - now)
      this.pumpTimer = this.setTimer(() => this.pump(), wait)
    }
  }

  /** The lead to keep now: more while a later sentence is still being synthesised. */
  private targetLead(): number {
    return this.synthesising > 0 ? this.coverLeadMs : this.leadMs
  }

  private sendAudio(item: Extract<Pending, { kind: 'audio' }>): void {
    const { utterance, samples } = item
    const playsAt = this.queueEnd
    this.stretchStartsAt ??= playsAt
    utterance.startsAt ??= playsAt
    this.queueEnd = playsAt + (samples.length * 1000) / CALL_SAMPLE_RATE
    utterance.endsAt = this.queueEnd
    const chunk: SentChunk = { owner: utterance.id, offset: item.offset, samples, playsAt, written: false }
    utterance.sent.push(chunk)
    this.unrecorded.push(chunk)
    this.options.send({ event: 'media', media: { payload: int16ToBase64(samples) } }, () => this.written(utterance, chunk))
    // The caption right after its sentence's first audio: frames keep their order, so it never reaches the client before that audio.
    if (item.caption !== undefined) this.options.send({ event: 'answer', content: item.caption })
  }

  /**
   * A media frame left for the socket: the client plays it from now at the earliest. Under load
   * (compression, a busy event loop) that is later than it was handed over, and what the caller
   * heard at a barge-in must count from here.
   */
  private written(utterance: UtteranceState, chunk: SentChunk): void {
    if (chunk.written) return
    this.writesAcknowledged = true
    chunk.written = true
    chunk.playsAt = Math.max(this.writtenEnd, this.options.now())
    this.writtenEnd = chunk.playsAt + (chunk.samples.length * 1000) / CALL_SAMPLE_RATE
    if (utterance.interrupted) return
    if (utterance.sent[0] === chunk) utterance.startsAt = chunk.playsAt
    if (utterance.sent.at(-1) === chunk) utterance.endsAt = this.writtenEnd
  }

  private sendMark(utterance: UtteranceState): void {
    const name = `utterance-${utterance.id}`
    utterance.startsAt ??= Math.max(this.queueEnd, this.options.now())
    utterance.endsAt ??= utterance.startsAt
    this.open.set(name, utterance)
    utterance.markSent = true
    this.options.send({ event: 'mark', mark: { name } })
    const grace = Math.max(0, (utterance.endsAt ?? 0) - this.options.now()) + (this.options.markGraceMs ?? 2_000)
    utterance.graceTimer = this.setTimer(() => this.settle(name), grace)
  }

  /** The utterance of mark `name` is over: heard, by echo or by grace. */
  private settle(name: string): void {
    const utterance = this.open.get(name)
    if (!utterance) return
    this.open.delete(name)
    this.unfinished.delete(utterance)
    utterance.graceTimer?.cancel()
    this.record(this.options.now() - this.playbackLag)
    utterance.resolveHeard()
  }

  /** Samples of `utterance` played by `at`, by the playback model (a chunk plays from its playsAt, in order). */
  private playedSamples(utterance: UtteranceState, at: number): number {
    let played = 0
    for (const chunk of utterance.sent) {
      if (at <= chunk.playsAt || (this.writesAcknowledged && !chunk.written)) break
      played = chunk.offset + Math.min(chunk.samples.length, Math.round(((at - chunk.playsAt) * CALL_SAMPLE_RATE) / 1000))
    }
    return played
  }

  /** The words of `utterance` played by `at`: whole sentences, then the words of the one cut whose middle played. */
  private heardTextOf(utterance: UtteranceState, at: number): string {
    const played = this.playedSamples(utterance, at)
    const words: string[] = []
    for (const sentence of utterance.sentences) {
      const heard = wordsHeard(sentence.words, played - sentence.offset)
      words.push(...heard.map((word) => word.text))
      if (heard.length < sentence.words.length) break
    }
    return words.join(' ')
  }

  /** Hands the audio played by `at` to onAudio (a chunk playing at `at` is cut there). */
  private record(at: number): void {
    const onAudio = this.options.onAudio
    let kept = 0
    for (const chunk of this.unrecorded) {
      if (chunk.playsAt >= at || (this.writesAcknowledged && !chunk.written)) {
        this.unrecorded[kept++] = chunk
        continue
      }
      const played = Math.min(chunk.samples.length, Math.round(((at - chunk.playsAt) * CALL_SAMPLE_RATE) / 1000))
      onAudio?.(chunk.samples.subarray(0, played), chunk.playsAt)
      if (played < chunk.samples.length)
        this.unrecorded[kept++] = {
          ...chunk,
          samples: chunk.samples.subarray(played),
          playsAt: chunk.playsAt + (played * 1000) / CALL_SAMPLE_RATE,
        }
    }
    this.unrecorded.length = kept
  }
}
