import type { RecordingState } from '../shared/api/conversations'
import type { DiskFullCondition } from '../store/disk-full-condition'
import type { MediaStore, Store } from '../store/ports'

/** What a call's recording met when its call ended; `failed`: another error than a full disk (logged). */
export type RecordingOutcome = RecordingState | 'failed'

/** A recording kept in memory until the disk has room. */
interface HeldRecording {
  jobId: string
  file: string
  wav: Buffer
  /** Resolves once the call's end was written (or failed to be): its `waiting` must not land after the stored mark. */
  endWritten: Promise<void>
}

export interface RecordingsAwaitingRoomOptions {
  media: Pick<MediaStore, 'put'>
  store: Pick<Store, 'conversations'>
  diskFull: DiskFullCondition
  /** How many bytes of recordings may wait in memory at once, all calls together. */
  maxBytes: number
  timestamp: () => string
  /** A recording was stored late, or lost: live views read the call again. */
  changed: (jobId: string) => void
  onError: (error: unknown, context: string) => void
}

/** 128 MiB: about 70 minutes of calls (16 kHz mono PCM16 is 1.9 MB a minute), a bit over the longest call. */
export const DEFAULT_HELD_RECORDING_BYTES = 128 * 1024 * 1024

/**
 * Call recordings that met a full disk when their call ended (docs/api.md, "Recordings on a
 * full disk"): kept in memory, within `maxBytes` for all calls, and stored once the disk has
 * room again, as the job runner resumes; the conversation says `waiting: disk full` meanwhile,
 * then nothing more (stored). One that does not fit, or is still waiting when the service
 * stops, is `lost: disk full`: never a recording URL that answers 404.
 */
export class RecordingsAwaitingRoom {
  private readonly held = new Map<string, HeldRecording>()
  private heldBytes = 0
  private flushing: Promise<void> | undefined
  private stopped = false

  constructor(private readonly options: RecordingsAwaitingRoomOptions) {}

  /** Bytes waiting now. */
  get bytesWaiting(): number {
    return this.heldBytes
  }

  /**
   * Stores a call's recording; on a full disk, keeps it to store later. `endWritten` resolves
   * when the call's end (with the outcome answered here in its state) was written.
   */
  async store(jobId: string, file: string, wav: Buffer, endWritten: Promise<void>): Promise<RecordingOutcome> {
    try {
      await this.options.media.put(file, wav)
      return 'stored'
    } catch (error) {
      if (!this.options.diskFull.report(error)) {
        this.options.onError(error, 'the call recording could not be stored')
        return 'failed'
      }
    }
    if (this.stopped || this.heldBytes + wav.length > this.options.maxBytes) {
      this.options.onError(
        new Error(
          `${this.heldBytes} bytes of recordings wait for room already; this one (${wav.length} bytes) would pass the limit of ${this.options.maxBytes}`,
        ),
        `the recording of call ${jobId} is lost: the disk is full`,
      )
      return 'lost: disk full'
    }
    this.held.set(jobId, { jobId, file, wav, endWritten })
    this.heldBytes += wav.length
    this.flushing ??= this.flushWhenThereIsRoom().finally(() => (this.flushing = undefined))
    return 'waiting: disk full'
  }

  /** Tries once more to store what waits (the service is stopping); what still cannot be is marked lost. */
  async stop(): Promise<void> {
    this.stopped = true
    for (const recording of [...this.held.values()]) {
      await recording.endWritten
      if (!(await this.tryToStore(recording))) await this.mark(recording, 'lost: disk full')
    }
  }

  private async flushWhenThereIsRoom(): Promise<void> {
    while (this.held.size > 0 && !this.stopped) {
      await this.options.diskFull.whenSpaceIsBack()
      if (this.stopped) return
      for (const recording of [...this.held.values()]) {
        await recording.endWritten
        if (this.stopped || !(await this.tryToStore(recording))) break
      }
      // Full again (reported by the failed write): the next round waits for room.
      if (this.held.size > 0 && !this.options.diskFull.isFull) await new Promise((resolve) => setTimeout(resolve, 1_000).unref?.())
    }
  }

  /** Stores the file, then clears the conversation's mark; true when both were done. */
  private async tryToStore(recording: HeldRecording): Promise<boolean> {
    try {
      await this.options.media.put(recording.file, recording.wav)
      await this.options.store.conversations.setRecording(recording.jobId, undefined, this.options.timestamp())
    } catch (error) {
      if (!this.options.diskFull.report(error)) this.options.onError(error, 'a call recording that waited for room could not be stored')
      return false
    }
    this.release(recording)
    this.options.changed(recording.jobId)
    return true
  }

  private async mark(recording: HeldRecording, state: 'lost: disk full'): Promise<void> {
    this.release(recording)
    try {
      await this.options.store.conversations.setRecording(recording.jobId, state, this.options.timestamp())
      this.options.changed(recording.jobId)
    } catch (error) {
      this.options.onError(error, `the recording of call ${recording.jobId} is lost, and its conversation could not say so`)
    }
  }

  private release(recording: HeldRecording): void {
    if (this.held.delete(recording.jobId)) this.heldBytes -= recording.wav.length
  }
}
