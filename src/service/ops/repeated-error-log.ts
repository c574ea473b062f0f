/** Where errors are written: pino's `error(fields, message)`. */
export interface ErrorLog {
  error(fields: Record<string, unknown>, message: string): void
}

interface Seen {
  /** When this error was last written in full (or last summarised). */
  since: number
  /** How many times it came again since then, unwritten. */
  repeats: number
  message: string
  code: string | undefined
}

/** Distinct errors tracked at once; beyond that the counts are written out and tracking starts again. */
const MAX_TRACKED = 1_000

function describe(fields: Record<string, unknown>): { code: string | undefined; text: string } {
  const error = fields.err as { code?: unknown; message?: unknown } | undefined
  const code = typeof error?.code === 'string' ? error.code : undefined
  return { code, text: typeof error?.message === 'string' ? error.message : '' }
}

/**
 * An error log that writes the same error (message, error code and error text) once per
 * window: repeats within it are counted, and written as one summary line when the window
 * ends. A failure that hits every request (a full disk, a broken engine) then costs one line
 * a minute, not one per request, and the first one still shows its full details.
 */
export class RepeatedErrorLog implements ErrorLog {
  private readonly seen = new Map<string, Seen>()
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly log: ErrorLog,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  error(fields: Record<string, unknown>, message: string): void {
    const { code, text } = describe(fields)
    const key = `${message}\u0000${code ?? ''}\u0000${text}`
    const at = this.now()
    const entry = this.seen.get(key)
    if (entry && at - entry.since < this.windowMs) {
      entry.repeats += 1
      this.timer ??= setTimeout(() => {
        this.timer = undefined
        this.flush()
      }, this.windowMs).unref()
      return
    }
    if (entry) this.summarise(entry, at)
    if (this.seen.size >= MAX_TRACKED) this.flush(true)
    this.seen.set(key, { since: at, repeats: 0, message, code })
    this.log.error(fields, message)
  }

  /** Writes a summary of every error repeated since it was written; forgets those whose window is over. */
  flush(all = false): void {
    const at = this.now()
    for (const [key, entry] of this.seen) {
      if (entry.repeats > 0) this.summarise(entry, at)
      if (all || at - entry.since >= this.windowMs) this.seen.delete(key)
    }
  }

  /** Writes what is still counted and stops the summary timer (the runtime stops). */
  close(): void {
    clearTimeout(this.timer)
    this.timer = undefined
    this.flush(true)
  }

  private summarise(entry: Seen, at: number): void {
    if (entry.repeats === 0) return
    const seconds = Math.max(1, Math.round((at - entry.since) / 1000))
    this.log.error(
      { repeated: entry.repeats, code: entry.code, sinceMs: at - entry.since },
      `${entry.message} (the same error ${entry.repeats} more time${entry.repeats === 1 ? '' : 's'} in ${seconds} s)`,
    )
    entry.repeats = 0
    entry.since = at
  }
}
