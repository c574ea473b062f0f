import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Seconds each long file kept a worker busy in a full run on the 2-core CI machine (the list
 * slowest-files-reporter prints, and vitest's results cache), as `project:path`. Files not named
 * here are short; a file that grows long belongs here, roughly placed.
 */
const KNOWN_SECONDS: Record<string, number> = {
  // The wall-clock group (after the rest, two at a time).
  'sqlite-alone:test/conversations/web-sdk-protocol.test.ts': 128,
  'postgres-alone:test/conversations/web-sdk-protocol.test.ts': 121,
  'sqlite-alone:test/conversations/test-call-stream.test.ts': 70,
  'postgres-alone:test/conversations/test-call-stream.test.ts': 67,
  // The rest.
  'sqlite:test/e2e/test-call-panel.test.ts': 128,
  'postgres:test/team/two-instances.test.ts': 108,
  'sqlite:test/e2e/operator-console-trust.test.ts': 105,
  'sqlite:test/service/state-100k-jobs.test.ts': 98,
  'sqlite:test/cli/state-commands.test.ts': 91,
  'sqlite:test/e2e/operator-console-layout.test.ts': 87,
  'sqlite:test/e2e/operator-ui.test.ts': 82,
  'sqlite:test/e2e/operator-console-walk.test.ts': 73,
  'sqlite:test/service/http/transcription-jobs.test.ts': 72,
  'sqlite:test/e2e/monitor-conversation.test.ts': 69,
  'sqlite:test/store/store-contract.test.ts': 64,
  'sqlite:test/webhooks/job-webhooks.test.ts': 60,
  'sqlite:test/cli/stt-engine.test.ts': 58,
  'postgres:test/service/http/transcription-jobs.test.ts': 52,
  'sqlite:test/cli/serve.test.ts': 50,
  'sqlite:test/service/http/state.test.ts': 51,
  'sqlite:test/cli/data-folder-and-keys.test.ts': 48,
  'sqlite:test/store/project-data.test.ts': 48,
  'postgres:test/service/http/text-rules.test.ts': 41,
  'sqlite:test/bench/understanding-bench-smoke.test.ts': 39,
  'sqlite:test/cli/readme-commands.test.ts': 38,
  'sqlite:test/e2e/transcripts-in-the-monitor.test.ts': 35,
  'sqlite:test/service/http/fuzz-job-bodies.test.ts': 33,
  'postgres:test/service/http/pipedream.test.ts': 33,
  'sqlite:test/e2e/requests-screen.test.ts': 33,
  'postgres:test/service/http/auth-and-requests.test.ts': 31,
  'sqlite:test/service/http/fuzz-bodies.test.ts': 31,
  'postgres:test/service/http/state.test.ts': 30,
}

/**
 * Longest files first, whatever their project, so that the two workers finish together: vitest's
 * own order runs one project's files after the other's, and on a fresh clone (no results cache)
 * the larger files first, which put a two-minute file late and left one worker idle at the end.
 * Group order (the wall-clock files after the rest) still comes first; files not listed keep
 * vitest's order after the listed ones.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files)
    const root = this.ctx.config.root
    const seconds = (spec: TestSpecification): number => KNOWN_SECONDS[`${spec.project.name}:${relative(root, spec.moduleId)}`] ?? 0
    const groupOrder = (spec: TestSpecification): number => spec.project.config.sequence.groupOrder
    // Array.prototype.sort is stable: unlisted files keep the base order among themselves.
    return base.sort((a, b) => groupOrder(a) - groupOrder(b) || seconds(b) - seconds(a))
  }
}
