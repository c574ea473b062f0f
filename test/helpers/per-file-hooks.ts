// A setup file (vitest.config.ts): vitest runs it for every test file, also when a worker keeps
// its modules between files, so the helpers' cleanups (after-every.ts) run after each file's tests.
import { afterAll, afterEach } from 'vitest'
import { runAfterEachFile, runAfterEachTest } from './after-every'

afterEach(runAfterEachTest)
afterAll(runAfterEachFile)
