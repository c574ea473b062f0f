import { relative } from 'node:path'
import type { Reporter, TestModule, Vitest } from 'vitest/node'

/** How many files the list names. */
const SHOWN = 10

/**
 * Prints the slowest test files of the run, after the default reporter's summary, so a file
 * that grew slow is seen in every run (CI's log included) rather than when the suite nears its
 * time limit. A file's time is its import, setup and tests: what it keeps one worker busy. The suite
 * is bound by the CPU of two cores, so the files that spend most of it are listed too.
 */
export default class SlowestFilesReporter implements Reporter {
  private root = process.cwd()

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const files = testModules.map((module) => {
      const { collectDuration, setupDuration, duration } = module.diagnostic()
      return {
        ms: collectDuration + setupDuration + duration,
        cpuMs: module.meta().cpuMs,
        project: module.project.name,
        file: relative(this.root, module.moduleId),
      }
    })
    type File = (typeof files)[number]
    const line = ({ ms, cpuMs, project, file }: File) =>
      `  ${(ms / 1000).toFixed(1).padStart(7)} s  ${cpuMs === undefined ? '      ?' : (cpuMs / 1000).toFixed(1).padStart(7)} s  ${project.padEnd(14)} ${file}`
    const list = (title: (count: number) => string, order: (a: File, b: File) => number) => {
      const shown = [...files].sort(order).slice(0, SHOWN)
      return shown.length === 0 ? '' : `\n${title(shown.length)}\n   wall        CPU\n${shown.map(line).join('\n')}\n`
    }
    process.stdout.write(
      list(
        (count) => `Slowest ${count} test files (import, setup and tests, per worker; CPU: the worker process, not its children):`,
        (a, b) => b.ms - a.ms,
      ) +
        list(
          (count) => `Busiest ${count} test files by CPU (the worker process: its threads, not its children such as Chromium or a CLI):`,
          (a, b) => (b.cpuMs ?? 0) - (a.cpuMs ?? 0),
        ),
    )
  }
}
