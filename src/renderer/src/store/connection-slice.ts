import { isOperatorError } from '../api/operator-error'
import type { SliceCreator } from './app-store'

/**
 * The link to the service, as the operator should see it. `connecting` until the first answer;
 * `reconnecting` after a failed check, retried with growing waits; `lost` after several.
 */
export type LinkState = 'connecting' | 'connected' | 'reconnecting' | 'lost'

/** A check every this often while the page is visible: one cheap service.info. */
export const LINK_CHECK_MS = 10_000
/** A check that has not answered by then counts as failed (a service that hangs). */
export const LINK_TIMEOUT_MS = 5_000
/** Failures in a row before the link is called lost (still retried, less often). */
export const LOST_AFTER_FAILURES = 3
const RETRY_MS = [1_000, 2_000, 4_000, 8_000, 15_000, 30_000] as const

export const retryDelayMs = (failures: number) => RETRY_MS[Math.min(failures, RETRY_MS.length) - 1] ?? RETRY_MS[0]

export interface ConnectionSlice {
  link: {
    state: LinkState
    failures: number
    /** When the next check runs (ms since the epoch), for the countdown; null while connected. */
    nextCheckAt: number | null
    /** Bumped at every return of the link: screens that load for themselves load again. */
    returns: number
    /** Whether checks run: only while the page is visible (a hidden window costs nothing). */
    watching: boolean
  }
  /** Starts or pauses the periodic checks (page visible or not); starting checks at once. */
  watchLink(watching: boolean): void
  /** Checks the link now (the status bar's "Retry now", a broken event stream). */
  checkLink(): Promise<void>
}

export const createConnectionSlice: SliceCreator<ConnectionSlice> = (set, get, { call, schedule, now }) => {
  const patch = (changes: Partial<ConnectionSlice['link']>) => set((state) => ({ link: { ...state.link, ...changes } }))
  let cancelNext: (() => void) | null = null
  let checking: Promise<void> | null = null

  const planNext = (ms: number) => {
    cancelNext?.()
    cancelNext = null
    if (!get().link.watching) return
    cancelNext = schedule(() => {
      cancelNext = null
      void get().checkLink()
    }, ms)
  }

  /** service.info, or a failure after LINK_TIMEOUT_MS. */
  const ping = () =>
    new Promise<Awaited<ReturnType<typeof call<'service.info'>>>>((resolve, reject) => {
      const cancelTimeout = schedule(() => reject(new Error('timeout')), LINK_TIMEOUT_MS)
      call('service.info', {}).then(
        (info) => (cancelTimeout(), resolve(info)),
        (error: unknown) => (cancelTimeout(), reject(error)),
      )
    })

  async function runCheck(): Promise<void> {
    const before = get().link
    try {
      const info = await ping()
      get().serviceInfoArrived(info)
      patch({ state: 'connected', failures: 0, nextCheckAt: null })
      // Back after a break: what events would have told us may have been missed.
      if (before.state === 'reconnecting' || before.state === 'lost') {
        patch({ returns: get().link.returns + 1 })
        get().resync()
      }
      planNext(LINK_CHECK_MS)
    } catch (error) {
      // A refused token is not a broken link: the UI shows the way back instead.
      if (isOperatorError(error) && error.code === 'UNAUTHORIZED') return
      const failures = get().link.failures + 1
      const wait = retryDelayMs(failures)
      patch({ state: failures >= LOST_AFTER_FAILURES ? 'lost' : 'reconnecting', failures, nextCheckAt: now() + wait })
      planNext(wait)
    }
  }

  return {
    link: { state: 'connecting', failures: 0, nextCheckAt: null, returns: 0, watching: false },
    watchLink(watching) {
      patch({ watching })
      if (watching) void get().checkLink()
      else {
        cancelNext?.()
        cancelNext = null
      }
    },
    checkLink() {
      // One check at a time: a click on "Retry now" during a check joins it.
      checking ??= runCheck().finally(() => {
        checking = null
      })
      return checking
    },
  }
}
