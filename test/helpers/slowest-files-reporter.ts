import { relative } from 'node:path'
import type { Reporter, TestModule, Vitest } from 'vitest/node'

/** How many files the list names. */
const SHOWN = 10

/**
 * Prints the slowest test files of the run, after the default reporter's summary, so a file
 * that grew slow is seen in every run (CI's log included) rather than when the suite nears its
 * time limit. A file's time is its import, setup and tests: what it keeps one worker busy.
 */
export default class SlowestFilesReporter implements Reporter {
  private root = process.cwd()

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const timed = testModules
      .map((module) => {
        const { collectDuration, setupDuration, duration } = module.diagnostic()
        return { ms: collectDuration + setupDuration + duration, project: module.project.name, file: relative(this.root, module.moduleId) }
      })
      .sort((a, b) => b.ms - a.ms)
      .slice(0, SHOWN)
    if (timed.length === 0) return
    const lines = timed.map(({ ms, project, file }) => `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${project.padEnd(8)} ${file}`)
    process.stdout.write(`\nSlowest ${timed.length} test files (import, setup and tests, per worker):\n${lines.join('\n')}\n`)
  }
}
