/** The store's timers (its throttles), run only when the test says so, and counted. */
export function manualClock() {
  let queue: (() => void)[] = []
  return {
    schedule: (run: () => void) => {
      queue.push(run)
      return () => {
        queue = queue.filter((item) => item !== run)
      }
    },
    /** Timers waiting to run. */
    get pending() {
      return queue.length
    },
    runAll() {
      const due = queue
      queue = []
      due.forEach((run) => run())
    },
  }
}
