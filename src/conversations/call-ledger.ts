import type { EndReason, TranscriptTurn } from '../shared/api/conversations'
import type { JobErrorCode } from '../shared/api/job-error-codes'
import type { CallEvent } from '../shared/api/webhooks'
import { present } from '../shared/present'
import { CallRecording } from './call-recording'
import { CallerClock } from './caller-clock'
import type { CallSessionOptions } from './call-session-options'

export type CallLedgerOptions = Pick<
  CallSessionOptions,
  | 'job'
  | 'agent'
  | 'owner'
  | 'state'
  | 'store'
  | 'recordings'
  | 'diskFull'
  | 'stopping'
  | 'writeEvent'
  | 'limits'
  | 'costOf'
  | 'now'
  | 'timestamp'
  | 'webhookQueued'
  | 'changed'
  | 'onError'
> & {
  /** When the call started (ms on `now`'s clock). */
  startedAt: number
  /** Whether the call is ending (its end is written by `close`, not by `persist`). */
  ending: () => boolean
  /** The call's record is no longer held by this instance (it was taken for dead): the call must stop. */
  leaseLost: () => void
}

export type CallFailure = { code: JobErrorCode; message: string }

/**
 * What a call keeps: its transcript, tool calls and progress written as they happen (each
 * write extends the call's lease, in order, with its webhook in the same transaction), the
 * recording of both sides, and the end. A call cut off by a crash keeps what was written.
 */
export class CallLedger {
  readonly recording = new CallRecording()
  /** Where the caller's audio lies on the call's timeline. */
  readonly callerClock = new CallerClock()
  /** Writes in order (progress and events). */
  private writes: Promise<unknown> = Promise.resolve()

  constructor(private readonly options: CallLedgerOptions) {}

  /** Seconds from the call's start to now, to the millisecond. */
  seconds(): number {
    return round3((this.options.now() - this.options.startedAt) / 1000)
  }

  /** Adds a finished turn to the transcript and writes it (`transcription.update`). */
  async addTurn(turn: TranscriptTurn): Promise<void> {
    turn.startTime = round3(turn.startTime)
    turn.endTime = round3(turn.endTime)
    const state = this.options.state
    const previous = state.transcript.at(-1)
    if (turn.role === 'agent' && turn.kind !== 'poke' && previous?.role === 'caller') {
      const kept = state.answerDelays ?? { answers: 0, seconds: 0 }
      state.answerDelays = { answers: kept.answers + 1, seconds: round3(kept.seconds + Math.max(0, turn.startTime - previous.endTime)) }
    }
    state.transcript.push(turn)
    await this.persist('transcription.update', { turn })
  }

  /**
   * Writes the call's progress (extending its lease), with an agent webhook when given, in one
   * transaction. A call whose lease was lost stops (leaseLost). Once the call's end is written
   * nothing more is (the save finds it no longer IN_PROGRESS).
   */
  persist(event?: CallEvent, data: Record<string, unknown> = {}): Promise<unknown> {
    this.writes = this.writes.then(async () => {
      const { job, agent, owner, limits } = this.options
      try {
        let queued = false
        const kept = await this.options.store.transaction(async (tx) => {
          const saved = await tx.conversations.save(
            job.id,
            owner,
            this.progress(),
            this.options.now() + limits.leaseMs,
            this.options.timestamp(),
          )
          if (saved && event) queued = await this.options.writeEvent(tx, { job, agent }, event, data)
          return saved
        })
        if (queued) this.options.webhookQueued()
        // A turn, a tool or the answer: open views (the monitor's detail) read the call again; a lease renewal alone changes nothing they show.
        if (kept && event && !this.options.ending()) this.options.changed({ ...job, status: 'IN_PROGRESS' })
        if (!kept && !this.options.ending()) this.options.leaseLost()
      } catch (error) {
        this.options.onError(error, 'the call could not be saved')
      }
    })
    return this.writes
  }

  /**
   * Stores the recording and writes the end (COMPLETED, or FAILED with `failure`) with its
   * `call.ended` webhook. Answers whether the end was written here (false when the call's
   * record was no longer held, or the write gave up).
   */
  async close(reason: EndReason, usageSeconds: number, failure?: CallFailure): Promise<boolean> {
    const { state, job } = this.options
    let endWritten!: () => void
    // As long as the call; longer only when the caller sent audio faster than real time (a test or a pipeline, not a
    // person): what they sent is kept whole rather than cut at the call's end.
    const callerEndSeconds = this.callerClock.msAt(this.callerClock.sampleCount) / 1000
    const recording = await this.options.recordings.store(
      job.id,
      present(job.mediaFile, `the recording's file of call ${job.id}`),
      this.recording.toWav(Math.max(usageSeconds, callerEndSeconds), this.callerClock.placement()),
      new Promise((resolve) => (endWritten = resolve)),
    )
    const recordingSaved = recording === 'stored'
    // The conversation tells a recording that waits for room (or was lost to a full disk) instead of a URL that answers 404.
    if (recording === 'waiting: disk full' || recording === 'lost: disk full') state.recording = recording
    try {
      return await this.writeEnd(reason, usageSeconds, recordingSaved, failure)
    } finally {
      endWritten()
    }
  }

  private progress() {
    const usageSeconds = this.seconds()
    const state = this.options.state
    const text = state.transcript
      .filter((turn) => turn.content)
      .map((turn) => `${turn.role === 'agent' ? 'Agent' : 'Caller'}: ${turn.content}`)
      .join('\n')
    return { text, jobResponse: state as unknown as Record<string, unknown>, usageSeconds, totalCost: this.options.costOf(usageSeconds) }
  }

  /** The end, in one transaction; on a full disk, once there is room again, as a job's end would be. */
  private async writeEnd(reason: EndReason, usageSeconds: number, recordingSaved: boolean, failure?: CallFailure): Promise<boolean> {
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
        return false
      }
    }
  }

  private async writeEndOnce(reason: EndReason, usageSeconds: number, recordingSaved: boolean, failure?: CallFailure): Promise<boolean> {
    const { state, job, agent, owner } = this.options
    const progress = { ...this.progress(), usageSeconds, totalCost: this.options.costOf(usageSeconds) }
    let queued = false
    const ended = await this.options.store.transaction(async (tx) => {
      if (
        !(await tx.conversations.save(job.id, owner, progress, this.options.now() + this.options.limits.leaseMs, this.options.timestamp()))
      )
        return false
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
    if (ended) this.options.changed({ ...job, status: failure ? 'FAILED' : 'COMPLETED' })
    return ended
  }
}

export function round3(value: number): number {
  return Math.round(value * 1000) / 1000
}
