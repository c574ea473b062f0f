import { AsyncLocalStorage } from 'node:async_hooks'
import type { Repositories } from './ports'

/**
 * The store's own repositories (or `transaction` itself) were called from inside the work of
 * `Store.transaction`: a bug in the caller. On SQLite the call would wait for the transaction
 * to end while the transaction waits for it; on PostgreSQL it would run on another connection,
 * outside the transaction. The work must use its handle (`tx`) instead.
 */
export class StoreUsedInsideTransactionError extends Error {
  constructor(readonly call: string) {
    super(
      `store.${call}() was called inside store.transaction(): use the transaction's handle (tx.${call}) instead, or call it after the transaction`,
    )
    this.name = 'StoreUsedInsideTransactionError'
  }
}

/** One open transaction, as its work's async context sees it; `open` turns false once it settled. */
interface OpenTransaction {
  open: boolean
}

/**
 * Knows whether the current async context is the work of one of this store's open
 * transactions (AsyncLocalStorage), so that the store's own repositories refuse to be called
 * from there. Work the transaction started and left running after it settled is let through.
 * The async context is tracked only while a transaction is open: on Node 20 an enabled
 * AsyncLocalStorage runs a hook for every promise of the process, and that cost every HTTP
 * request a few % of its CPU (in the profile) for ever after the start-up's first transaction.
 */
export class TransactionGuard {
  private readonly context = new AsyncLocalStorage<OpenTransaction>()
  /** Transactions open now: while none is, the check is one comparison. */
  private openCount = 0

  /** Runs a transaction's `work` in its own async context. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    const transaction: OpenTransaction = { open: true }
    this.openCount += 1
    try {
      return await this.context.run(transaction, work)
    } finally {
      transaction.open = false
      this.openCount -= 1
      // Every transaction has settled, so no context is inside one: stop tracking until the next (run enables it again).
      if (this.openCount === 0) this.context.disable()
    }
  }

  /** True when called from the work of an open transaction of this store. */
  get inside(): boolean {
    return this.openCount > 0 && this.context.getStore()?.open === true
  }

  /** Throws StoreUsedInsideTransactionError when called from the work of an open transaction. */
  check(call: string): void {
    if (this.inside) throw new StoreUsedInsideTransactionError(call)
  }

  /**
   * The same repositories, each method of which answers a rejected promise (as an async method
   * would) with StoreUsedInsideTransactionError when called from inside a transaction's work.
   */
  guard(repositories: Repositories): Repositories {
    const guarded: Record<string, unknown> = {}
    for (const [name, repository] of Object.entries(repositories) as [string, Record<string, unknown>][]) {
      const wrapped: Record<string, unknown> = {}
      for (const key of methodNames(repository)) {
        const method = repository[key] as (...args: unknown[]) => unknown
        wrapped[key] = (...args: unknown[]) =>
          this.openCount > 0 && this.inside
            ? Promise.reject(new StoreUsedInsideTransactionError(`${name}.${key}`))
            : method.apply(repository, args)
      }
      guarded[name] = wrapped
    }
    return guarded as unknown as Repositories
  }
}

/** A repository's methods: those of its class, or its own function properties (a wrapped repository is a plain object). */
function methodNames(repository: Record<string, unknown>): string[] {
  const prototype = Object.getPrototypeOf(repository) as object | null
  const names = prototype === Object.prototype || prototype === null ? Object.keys(repository) : Object.getOwnPropertyNames(prototype)
  return names.filter((key) => key !== 'constructor' && typeof repository[key] === 'function')
}
