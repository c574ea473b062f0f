// A setup file (vitest.config.ts): vitest runs it for every test file, also when a worker keeps
// its modules between files, so the helpers' cleanups (after-every.ts) run after each file's tests.
import { afterAll, afterEach } from 'vitest'
import { runAfterEachFile, runAfterEachTest } from './after-every'

declare module 'vitest' {
  interface TaskMeta {
    /** CPU time (user + system, ms) the worker process spent on the file, its threads included, its child processes not. */
    cpuMs?: number
  }
}

// Taken as the file starts (this module runs again for each file, before the file is imported);
// read after the cleanups (after-hooks run last registered first): they are the file's work too.
const cpuAtStart = process.cpuUsage()
// vitest reads the hook's first parameter as the fixtures it asks for: it must be an object pattern.
// eslint-disable-next-line no-empty-pattern -- no fixtures wanted, only the second parameter (the file)
afterAll(({}, suite) => {
  const used = process.cpuUsage(cpuAtStart)
  suite.meta.cpuMs = Math.round((used.user + used.system) / 1000)
})

afterEach(runAfterEachTest)
afterAll(runAfterEachFile)
