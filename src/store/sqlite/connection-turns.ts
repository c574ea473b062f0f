/**
 * Turns on the one SQLite connection: a transaction holds it from BEGIN to COMMIT, across the
 * awaits of its work, and whatever else wants the connection meanwhile waits, first come first
 * served. Without turns, a statement of another request could run inside someone else's
 * transaction, and be rolled back with it.
 */
export class ConnectionTurns {
  private last: Promise<void> = Promise.resolve()
  private holders = 0

  /** True while a turn is held or waited for: a call must then queue. */
  get busy(): boolean {
    return this.holders > 0
  }

  async run<T>(work: () => T | Promise<T>): Promise<T> {
    const before = this.last
    let done!: () => void
    this.last = new Promise<void>((resolve) => (done = resolve))
    this.holders += 1
    try {
      await before
      return await work()
    } finally {
      this.holders -= 1
      done()
    }
  }

  /** Resolves once every turn taken so far is over. */
  idle(): Promise<void> {
    return this.last
  }
}
