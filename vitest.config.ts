import { availableParallelism } from 'node:os'
import { relative } from 'node:path'
import { defineConfig } from 'vitest/config'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Files run side by side: one fork per core, and one more. A fork spends part of its file
 * waiting (audio played in real time, Chromium, a CLI starting), and files share their fork's
 * loaded modules (`isolate: false` below). Measured on a clean clone (2026-11-29, /proc/stat
 * sampled every 2 s): with three forks both cores are busy from the first file to the last of
 * the projects `sqlite` and `postgres`; four forks finished those only about 5 % sooner and six
 * load-sensitive tests failed. The suite is bound by CPU: what shortens it is CPU saved (the
 * list of the busiest files at the end of every run names where it goes). Every file has its
 * own temp folders (helpers/temp-dir), ports (0), databases (helpers/test-engine) and child
 * processes; the build in out/ is only read. The files whose bounds are wall-clock promises run
 * apart (ALONE below). VOICEDESK_TEST_WORKERS overrides (1 runs one file at a time).
 */
const WORKERS = Number(process.env.VOICEDESK_TEST_WORKERS) || availableParallelism() + 1

/**
 * Files asserting wall-clock bounds that are the product's promise, not the test's patience:
 * audio sent ahead of real time, a typed turn answered within 2 s, a call ended within 2 s of
 * its last frame. Beside CPU-heavy files on 2 cores these bounds measure the machine; they run
 * after the rest, two files at a time (ALONE_WORKERS): a call mostly waits on audio played in
 * real time and takes a few percent of a core, but each file's first call starts cold (eSpeak's
 * WASM, the first synthesis): three cold starts at once once took a greeting past its 3 s bound.
 * `fileParallelism: false` here made vitest run the whole group (both projects) one file at a
 * time, about 400 s where two at a time take about 130. VOICEDESK_ALONE_WORKERS=1 runs them one
 * at a time again. `npm test` runs them in a vitest run of their own (`test:wall-clock`), beside
 * the lint and type checks at the lowest priority, which take the core these files leave idle.
 */
const ALONE_WORKERS = Number(process.env.VOICEDESK_ALONE_WORKERS) || 2
const ALONE_CALLS = [
  'test/conversations/web-sdk-protocol.test.ts',
  'test/conversations/web-sdk-speech.test.ts',
  'test/conversations/test-call-stream.test.ts',
  'test/conversations/call-barge-in.test.ts',
]
/**
 * The SIP line's files with the same kind of bounds: SIPp scenarios and baresip keep to a script
 * in real time (keys at fixed instants, hang-ups after fixed pauses), and the RTP clock's
 * lateness is measured. Beside two CPU-heavy files at load 8, three of their tests failed. The
 * line stores nothing an engine changes: SQLite only.
 */
const ALONE_TELEPHONY = [
  'test/telephony/sip-line.test.ts',
  'test/telephony/sip-line-edges.test.ts',
  'test/telephony/sip-keypad-choice.test.ts',
  'test/telephony/sip-media.test.ts',
  'test/telephony/baresip-outbound.test.ts',
  'test/telephony/sipp-softphone.test.ts',
]
/**
 * The eSpeak engine's promises of promptness: an aborted synthesis rejects within 50 ms and the
 * worker takes the next text within 500 ms. Beside three forks that keep both cores busy, the
 * next text once took 911 ms. The engine stores nothing: SQLite only.
 */
const ALONE_ENGINES = ['test/engines/tts/espeak-tts-engine.test.ts']
const ALONE = [...ALONE_CALLS, ...ALONE_TELEPHONY, ...ALONE_ENGINES]

/**
 * What runs again on PostgreSQL: where storage is touched in ways that differ by engine
 * (transactions, leases and locks, JSON and text rules such as NUL and lone surrogates, search,
 * counts, media in the database, migrations, concurrency, team mode, live calls' records).
 * Routes that answer before storage is reached run on SQLite only: the API documents (openapi,
 * asyncapi), CORS, the Host check, Node's HTTP parser refusals (client-errors), realtime speech
 * (engine work; the one row it writes is a job like those jobs.test.ts stores on both). So do
 * files whose subject is the answer's shape or the engines' work over rows the others store on
 * both: a client's replay (pipedream), /v2's mapping of /v1, subtitles (transcribe-srt), what a
 * dictionary does to speech (voice-dictionaries.test.ts stores them on both), custom AI content
 * (the model's work; its job is a job), the fault rules (held in memory; the jobs they fail
 * are jobs), the request gates' runner (no service at all), and authentication and malformed
 * requests (refused before storage; keys are stored by the store contract's suites, text the
 * stores take by text-rules on both). The
 * store contract suites (test/store) run both engines inside the sqlite project, on a cluster
 * of their own (helpers/store-fixtures lazyPostgresCluster).
 */
const SQLITE_ONLY_HTTP = [
  'test/service/http/openapi.test.ts',
  'test/service/http/asyncapi.test.ts',
  'test/service/http/cors.test.ts',
  'test/service/http/host-check.test.ts',
  'test/service/http/client-errors.test.ts',
  'test/service/http/realtime-tts.test.ts',
  'test/service/http/realtime-stt-json.test.ts',
  'test/service/http/realtime-speakers.test.ts',
  'test/service/http/pipedream.test.ts',
  'test/service/http/v2.test.ts',
  'test/service/http/transcribe-srt.test.ts',
  'test/service/http/voice-dictionary-speech.test.ts',
  'test/service/http/ai-content-custom.test.ts',
  'test/service/http/fault-injection.test.ts',
  'test/service/http/auth-and-requests.test.ts',
  'test/service/http/request-gates.test.ts',
]
const ON_POSTGRES = ['test/service/http/**/*.test.ts', 'test/team/**/*.test.ts', 'test/conversations/**/*.test.ts']
const POSTGRES = { env: { VOICEDESK_TEST_ENGINE: 'postgres' }, globalSetup: ['test/helpers/postgres-global-setup.ts'] }

/**
 * Seconds each long file kept a worker busy in a full run on the 2-core CI machine (the list
 * slowest-files-reporter prints, and vitest's results cache: node_modules/.vite/vitest/<hash>/results.json),
 * as `project:path`: files of 20 s or more in the clean run of 26:13, those made faster since
 * estimated. Files not named here are short; a file that grows long belongs here, roughly placed.
 */
const KNOWN_SECONDS: Record<string, number> = {
  // The wall-clock group (after the rest, two at a time).
  'sqlite-alone:test/conversations/test-call-stream.test.ts': 66,
  'sqlite-alone:test/conversations/web-sdk-speech.test.ts': 63,
  'sqlite-alone:test/conversations/web-sdk-protocol.test.ts': 58,
  'sqlite-alone:test/telephony/sip-keypad-choice.test.ts': 41,
  'postgres-alone:test/conversations/web-sdk-protocol.test.ts': 35,
  'sqlite-alone:test/telephony/sip-line.test.ts': 18,
  'postgres-alone:test/conversations/test-call-stream.test.ts': 11,
  'postgres-alone:test/conversations/call-barge-in.test.ts': 11,
  'sqlite-alone:test/telephony/sip-line-edges.test.ts': 10,
  'sqlite-alone:test/conversations/call-barge-in.test.ts': 9,
  'sqlite-alone:test/telephony/baresip-outbound.test.ts': 9,
  'sqlite-alone:test/telephony/sip-media.test.ts': 4,
  'sqlite-alone:test/telephony/sipp-softphone.test.ts': 4,
  'sqlite-alone:test/engines/tts/espeak-tts-engine.test.ts': 30,
  // The rest (three forks).
  'sqlite:test/e2e/test-call-panel.test.ts': 215,
  'postgres:test/team/two-instances.test.ts': 153,
  'sqlite:test/cli/state-commands.test.ts': 130, // 155 before the CLI stopped loading the service for data-folder commands
  'sqlite:test/e2e/operator-console-trust.test.ts': 125,
  'sqlite:test/cli/serve.test.ts': 121,
  'sqlite:test/service/state-100k-jobs.test.ts': 120, // 255 before its import path took the search index in one statement (80 -> 38 s alone)
  'sqlite:test/e2e/operator-ui.test.ts': 105, // 114 before its 100,000 jobs went in as an import
  'sqlite:test/service/http/transcription-jobs.test.ts': 78,
  'postgres:test/service/http/transcription-jobs.test.ts': 45, // 73 before the 2-hour windows ran on SQLite only
  'sqlite:test/e2e/monitor-conversation.test.ts': 72,
  'sqlite:test/e2e/operator-console-walk.test.ts': 71,
  'sqlite:test/store/store-contract.test.ts': 66,
  'sqlite:test/e2e/operator-console-layout.test.ts': 58,
  'sqlite:test/service/http/test-runs.test.ts': 57,
  'postgres:test/service/http/test-runs.test.ts': 54,
  'sqlite:test/cli/data-folder-and-keys.test.ts': 50, // 61 before the same
  'sqlite:test/service/http/starter-suites.test.ts': 44,
  'sqlite:test/service/http/fuzz-bodies.test.ts': 42,
  'sqlite:test/e2e/operator-console-daily.test.ts': 41,
  'sqlite:test/bench/understanding-bench-smoke.test.ts': 41,
  'sqlite:test/service/http/realtime-tts.test.ts': 39,
  'sqlite:test/cli/test-agent.test.ts': 39,
  'sqlite:test/service/http/fuzz-job-bodies.test.ts': 39,
  'sqlite:test/cli/stt-engine.test.ts': 38,
  'sqlite:test/e2e/agent-tests-tab.test.ts': 38,
  'postgres:test/service/http/state-hostile-archives.test.ts': 20, // 35 before its reader-only refusals ran on SQLite only
  'sqlite:test/store/project-data.test.ts': 32,
  'sqlite:test/service/http/state.test.ts': 20, // 30 before a file's runtimes shared one eSpeak engine
  'sqlite:test/cli/readme-commands.test.ts': 30,
  'sqlite:test/service/http/state-archive-fuzz.test.ts': 30,
  'postgres:test/service/http/fuzz-bodies.test.ts': 29,
  'sqlite:test/cli/import-interrupted.test.ts': 29,
  'postgres:test/service/http/state.test.ts': 20, // 28 before its archive-reader tests ran on SQLite only
  'postgres:test/team/cli-team-mode.test.ts': 27,
  'sqlite:test/e2e/requests-screen.test.ts': 26,
  'sqlite:test/e2e/operator-console-dates-engines.test.ts': 25,
  'postgres:test/service/http/state-archive-fuzz.test.ts': 24,
  'sqlite:test/e2e/transcripts-in-the-monitor.test.ts': 24,
  'sqlite:test/cli/disk-full.test.ts': 24,
  'sqlite:test/e2e/agent-history.test.ts': 23,
  'postgres:test/service/http/text-rules.test.ts': 23,
  'sqlite:test/cli/readme-tour.test.ts': 23,
  'sqlite:test/cli/webhook-secret.test.ts': 23,
  'postgres:test/service/http/request-journal.test.ts': 23,
  'postgres:test/service/http/media-upload.test.ts': 21,
  'postgres:test/service/http/outbound-call.test.ts': 21,
  'sqlite:test/webhooks/job-webhooks.test.ts': 21,
  'sqlite:test/e2e/web-sdk-call.test.ts': 21,
  'sqlite:test/service/http/media-upload.test.ts': 21,
  'sqlite:test/e2e/test-call-across-screens.test.ts': 20,
}

/**
 * Longest files first, whatever their project, so that the two workers finish together: vitest's
 * own order runs one project's files after the other's, and on a fresh clone (no results cache)
 * the larger files first, which put a two-minute file late and left one worker idle at the end.
 * Group order (the wall-clock files after the rest) still comes first; files not listed keep
 * vitest's order after the listed ones.
 */
class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files)
    const root = this.ctx.config.root
    const seconds = (spec: TestSpecification): number => KNOWN_SECONDS[`${spec.project.name}:${relative(root, spec.moduleId)}`] ?? 0
    const groupOrder = (spec: TestSpecification): number => spec.project.config.sequence.groupOrder
    // Array.prototype.sort is stable: unlisted files keep the base order among themselves.
    return base.sort((a, b) => groupOrder(a) - groupOrder(b) || seconds(b) - seconds(a))
  }
}

export default defineConfig({
  test: {
    environment: 'node',
    // Native SQLite and real servers: separate processes keep each file's state its own from
    // Chromium's, PostgreSQL's and the CLI's.
    pool: 'forks',
    // A fork runs file after file with the modules it has loaded: each file's state is its own
    // anyway (its temp folders, ports, databases and runtimes, closed after it), and loading the
    // service's modules again per file was a sixth of the suite's time (vitest's "import", 490 s
    // of 2,800). Whatever a file changes of the process (env, timers, mocks) it restores.
    isolate: false,
    // The shared helpers' cleanups (servers, temp folders, CLI children) after every test and file.
    setupFiles: ['test/helpers/per-file-hooks.ts'],
    maxWorkers: WORKERS,
    // A step that waits on a busy machine (two forks, Chromium and PostgreSQL on two cores) is slow, not stuck.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // The default reporter, then the ten slowest files of the run.
    reporters: ['default', './test/helpers/slowest-files-reporter.ts'],
    // The longest files first (KNOWN_SECONDS), so both workers finish together.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      // Everything, on SQLite (the embedded default).
      {
        extends: true,
        test: { name: 'sqlite', include: ['test/**/*.test.ts'], exclude: ['**/node_modules/**', 'test/team/**', ...ALONE] },
      },
      // What differs by engine, again on a real PostgreSQL cluster started for the run.
      { extends: true, test: { name: 'postgres', include: ON_POSTGRES, exclude: [...SQLITE_ONLY_HTTP, ...ALONE], ...POSTGRES } },
      // The wall-clock files, after the others: two at a time, whichever engine (one group, one worker limit).
      { extends: true, test: { name: 'sqlite-alone', include: ALONE, maxWorkers: ALONE_WORKERS, sequence: { groupOrder: 1 } } },
      {
        extends: true,
        test: { name: 'postgres-alone', include: ALONE_CALLS, maxWorkers: ALONE_WORKERS, sequence: { groupOrder: 1 }, ...POSTGRES },
      },
    ],
  },
})
