/**
 * Who speaks next. `live` is speech a person is waiting for (a call's next sentence, realtime
 * TTS, a voice sample); `batch` is speech nobody listens to yet (TTS jobs).
 */
export type SpeechPriority = 'live' | 'batch'

/**
 * The waiting room of the synthesis pool: every live item before any batch item; live items
 * taken in turn from each flow (a call, a realtime request), so one call's five queued
 * sentences do not hold back another call's first; batch items in arrival order. An item
 * holds a worker for one segment of text at most (see speech-segments.ts), so a live item
 * waits for at most one batch segment per busy worker.
 */
export class SpeechQueue<Item> {
  /** Live items by flow, in the order the flows get their next turn (Map keeps insertion order). */
  private readonly live = new Map<unknown, Item[]>()
  private readonly batch: Item[] = []
  private liveCount = 0

  get size(): number {
    return this.liveCount + this.batch.length
  }

  /** Queues `item`; live items of the same `flow` keep their order among themselves. */
  push(item: Item, priority: SpeechPriority, flow: unknown): void {
    if (priority === 'batch') {
      this.batch.push(item)
      return
    }
    const waiting = this.live.get(flow)
    if (waiting) waiting.push(item)
    else this.live.set(flow, [item])
    this.liveCount += 1
  }

  /** The next item to run, taken out of the queue. */
  shift(): Item | undefined {
    for (const [flow, waiting] of this.live) {
      const item = waiting.shift()
      // The flow's turn is used: it goes to the back of the line, or leaves it when empty.
      this.live.delete(flow)
      if (waiting.length > 0) this.live.set(flow, waiting)
      if (item === undefined) continue
      this.liveCount -= 1
      return item
    }
    return this.batch.shift()
  }

  /** Takes `item` out wherever it waits (an aborted synthesis frees its place). Answers whether it was queued. */
  remove(item: Item): boolean {
    const inBatch = this.batch.indexOf(item)
    if (inBatch >= 0) {
      this.batch.splice(inBatch, 1)
      return true
    }
    for (const [flow, waiting] of this.live) {
      const index = waiting.indexOf(item)
      if (index < 0) continue
      waiting.splice(index, 1)
      if (waiting.length === 0) this.live.delete(flow)
      this.liveCount -= 1
      return true
    }
    return false
  }

  /** Empties the queue, answering what waited (live first). */
  drain(): Item[] {
    const items: Item[] = []
    for (let item = this.shift(); item !== undefined; item = this.shift()) items.push(item)
    return items
  }
}
