import type { TestRun } from '../../../shared/api/test-suites'

/** Scenarios (by name) every round of which passed in `green` but some round of which fails in `latest`. */
export function brokenSince(green: TestRun, latest: TestRun): string[] {
  const passedThen = new Set(green.results.filter((result) => result.pass).map((result) => result.name))
  const failingNow = new Set(latest.results.filter((result) => result.status === 'FAILED').map((result) => result.name))
  const failedThen = new Set(green.results.filter((result) => !result.pass).map((result) => result.name))
  return [...failingNow].filter((name) => passedThen.has(name) && !failedThen.has(name))
}
