/**
 * Promises that resolve once a condition over the frames received so far holds: checked now,
 * then again each time `check()` is called (at every frame). A test client's way to wait.
 */
export class FrameWaiters {
  private readonly pending = new Set<() => void>()

  /** Checks every waiting condition again (call it when a frame arrived). */
  check(): void {
    for (const waiter of [...this.pending]) waiter()
  }

  /** Resolves with `predicate`'s first truthy value; rejects after `timeoutMs` with `failure()`'s words. */
  waitFor<T>(predicate: () => T | undefined | false, timeoutMs: number, failure: () => string): Promise<T> {
    const found = predicate()
    if (found) return Promise.resolve(found)
    return new Promise((resolve, reject) => {
      const check = () => {
        const value = predicate()
        if (!value) return
        clearTimeout(timer)
        this.pending.delete(check)
        resolve(value)
      }
      const timer = setTimeout(() => {
        this.pending.delete(check)
        reject(new Error(failure()))
      }, timeoutMs)
      this.pending.add(check)
    })
  }
}
