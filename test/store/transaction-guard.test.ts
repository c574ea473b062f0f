import { AsyncLocalStorage } from 'node:async_hooks'
import { describe, expect, it } from 'vitest'
import { TransactionGuard } from '../../src/store/transaction-guard'

/**
 * Node 20's AsyncLocalStorage keeps an undocumented `enabled` flag: while any instance is
 * enabled, a hook runs for every promise of the process. Newer Node (AsyncContextFrame) has
 * no such flag and no such cost: there only the guard's behaviour is checked.
 */
function trackingOf(guard: TransactionGuard): boolean | undefined {
  const context = (guard as unknown as { context: AsyncLocalStorage<unknown> & { enabled?: boolean } }).context
  return context.enabled
}

const hasEnabledFlag = typeof (new AsyncLocalStorage() as unknown as { enabled?: unknown }).enabled === 'boolean'

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void
  const promise = new Promise<void>((settle) => (resolve = settle))
  return { promise, resolve }
}

describe('TransactionGuard', () => {
  it.runIf(hasEnabledFlag)(
    'tracks async contexts only while a transaction is open (no per-promise hook on the request path otherwise)',
    async () => {
      const guard = new TransactionGuard()
      expect(trackingOf(guard)).toBe(false)
      const open = deferred()
      const running = guard.run(async () => {
        await open.promise
      })
      expect(trackingOf(guard)).toBe(true)
      open.resolve()
      await running
      expect(trackingOf(guard)).toBe(false)
    },
  )

  it('still knows the inside of a transaction after tracking stopped and started again, with transactions overlapping (PostgreSQL)', async () => {
    const guard = new TransactionGuard()
    await guard.run(async () => {
      await Promise.resolve()
      expect(guard.inside).toBe(true)
    })
    expect(guard.inside).toBe(false)
    // Two overlapping transactions: the first ends while the second's work still awaits.
    const firstMayEnd = deferred()
    const secondMayGoOn = deferred()
    let leftRunning: Promise<boolean> | undefined
    const first = guard.run(async () => {
      leftRunning = secondMayGoOn.promise.then(() => guard.inside)
      await firstMayEnd.promise
      expect(guard.inside).toBe(true)
    })
    const seen: boolean[] = []
    const second = guard.run(async () => {
      seen.push(guard.inside)
      await secondMayGoOn.promise
      await new Promise((resolve) => setImmediate(resolve))
      seen.push(guard.inside)
    })
    // Many callers outside the work while both are open: none is inside.
    const outside = await Promise.all(Array.from({ length: 20 }, async () => (await Promise.resolve(), guard.inside)))
    expect(outside).toEqual(Array(20).fill(false))
    firstMayEnd.resolve()
    await first
    secondMayGoOn.resolve()
    await second
    expect(seen).toEqual([true, true])
    // Work the first transaction left running, run after it ended: not inside any.
    expect(await leftRunning).toBe(false)
    if (hasEnabledFlag) expect(trackingOf(guard)).toBe(false)
  })
})
