import { performance } from 'node:perf_hooks'

/** An RTP packet of G.711 holds 20 ms of audio. */
export const PACKET_MS = 20

/** The most ticks a late timer makes up at once; beyond, the clock skips ahead (an event loop stalled for long). */
const MAX_CATCH_UP_TICKS = 10

/**
 * The audio clock every call's RTP is sent by: one timer for all calls, ticking every 20 ms
 * counted from its start time (tick n is due at start + n × 20 ms), never by chaining 20 ms
 * timeouts, so it does not drift. A timer that fires late runs the ticks it missed at once
 * (each call sends the packets it owed), up to MAX_CATCH_UP_TICKS. It runs only while a call listens.
 */
export class PacketClock {
  private readonly listeners = new Set<() => void>()
  private startedAt = 0
  private ticks = 0
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly periodMs = PACKET_MS,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Calls `listener` at every tick from now on; answers the function that stops it. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener)
    if (this.timer === undefined) {
      this.startedAt = this.now()
      this.ticks = 0
      this.schedule()
    }
    return () => {
      this.listeners.delete(listener)
      if (this.listeners.size === 0 && this.timer !== undefined) {
        clearTimeout(this.timer)
        this.timer = undefined
      }
    }
  }

  private schedule(): void {
    const dueAt = this.startedAt + (this.ticks + 1) * this.periodMs
    this.timer = setTimeout(() => this.run(), Math.max(0, dueAt - this.now()))
  }

  private run(): void {
    const due = Math.floor((this.now() - this.startedAt) / this.periodMs)
    if (due - this.ticks > MAX_CATCH_UP_TICKS) this.ticks = due - MAX_CATCH_UP_TICKS
    while (this.ticks < due) {
      this.ticks += 1
      for (const listener of [...this.listeners]) listener()
    }
    if (this.listeners.size > 0) this.schedule()
    else this.timer = undefined
  }
}
