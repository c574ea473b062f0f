/**
 * Cleanups the shared helpers need after every test or every file (servers they started, temp
 * folders, CLI children). A helper module is loaded once per worker and kept for the next file
 * (vitest.config's isolate: false), so a hook it registered at load would run for the first file
 * only: it registers its cleanup here instead, and test/helpers/per-file-hooks.ts (a setup file,
 * run for every file) runs them.
 */
type Cleanup = () => unknown

const REGISTRY = Symbol.for('voicedesk.test.after-every')

/**
 * Held by the process, not by this module: vitest evaluates a setup file's imports again for
 * every file, while the helpers that registered here keep the instance they loaded first.
 */
const registry = ((globalThis as { [REGISTRY]?: { afterEachTest: Cleanup[]; afterEachFile: Cleanup[] } })[REGISTRY] ??= {
  afterEachTest: [],
  afterEachFile: [],
})
const { afterEachTest, afterEachFile } = registry

/** Runs `cleanup` after every test of every file, once this module is loaded. */
export function afterEveryTest(cleanup: Cleanup): void {
  afterEachTest.push(cleanup)
}

/** Runs `cleanup` after every file's last test, once this module is loaded. */
export function afterEveryFile(cleanup: Cleanup): void {
  afterEachFile.push(cleanup)
}

/** Each cleanup, the last registered first (as vitest runs after-hooks); all run even when one fails. */
async function runAll(cleanups: Cleanup[]): Promise<void> {
  const failures: unknown[] = []
  for (const cleanup of [...cleanups].reverse()) {
    try {
      await cleanup()
    } catch (error) {
      failures.push(error)
    }
  }
  if (failures.length === 1) throw failures[0]
  if (failures.length > 1) throw new AggregateError(failures, `${failures.length} cleanups failed`)
}

export const runAfterEachTest = () => runAll(afterEachTest)
export const runAfterEachFile = () => runAll(afterEachFile)
