import type { IpcEvent } from '../../shared/ipc/operations'

export type OperatorEventListener = (event: IpcEvent) => void

/** The runtime's live updates for the operator UI: Electron forwards them to the window, browser mode streams them as SSE. */
export interface OperatorEvents {
  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: OperatorEventListener): () => void
  /** Whether anyone listens: events are only built when someone does, so a headless service pays nothing. */
  readonly listening: boolean
}

/**
 * A synchronous fan-out. Emitters are the job runner and the webhook sender, so a listener
 * that throws is logged and skipped: it must never fail a job or a delivery.
 */
export class OperatorEventHub implements OperatorEvents {
  private readonly listeners = new Set<OperatorEventListener>()
  private pending: Promise<void> = Promise.resolve()

  /** `onError` gets what failed: building an event, or a listener given one (with the event's type). */
  constructor(private readonly onError: (error: unknown, eventType: string | undefined) => void) {}

  get listening(): boolean {
    return this.listeners.size > 0
  }

  subscribe(listener: OperatorEventListener): () => void {
    // Wrapped, so one function subscribed twice is two subscriptions, each removed by its own unsubscribe.
    const entry: OperatorEventListener = (event) => listener(event)
    this.listeners.add(entry)
    return () => {
      this.listeners.delete(entry)
    }
  }

  /** Builds the event only when someone listens, then tells every listener. */
  emit(build: () => IpcEvent | undefined): void {
    if (this.listeners.size === 0) return
    let event: IpcEvent | undefined
    try {
      event = build()
    } catch (error) {
      this.onError(error, undefined)
      return
    }
    if (event) this.tell(event)
  }

  /**
   * Like emit, for an event whose building reads the store. It is built at once (so it tells
   * the state as it is now), and such events reach listeners in the order they were emitted
   * (a job's "queued" before its "started"), each after the one before.
   */
  emitAsync(build: () => Promise<IpcEvent | undefined>): void {
    if (this.listeners.size === 0) return
    const built = build().catch((error: unknown) => {
      this.onError(error, undefined)
      return undefined
    })
    this.pending = this.pending.then(async () => {
      const event = await built
      if (event) this.tell(event)
    })
  }

  private tell(event: IpcEvent): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(event)
      } catch (error) {
        this.onError(error, event.type)
      }
    }
  }
}
