import { randomUUID } from 'node:crypto'
import { present } from '../../shared/present'
import { VOICES } from '../../shared/voices'
import type { OutcomeShape } from '../../shared/api/outcome-shape'
import type { Scenario, ScenarioResult, TestSuite } from '../../shared/api/test-suites'
import type { TestRunRecord, VoiceAgentRecord } from '../../store/records'
import { getConversation, initConversation } from '../ops/conversations'
import { type Caller, type OpsContext, timestamp } from '../ops/ops-context'
import { runScenarioCall, type ScenarioCallReport } from './scenario-call'
import { percentile, scoreCall } from './scoring'
import { simulatedCaller } from './simulated-caller'

/*
 * Runs test suites (docs/api.md, "Test suites and runs"): each scenario a real conversation
 * (conversation-init, then a WebSocket client on this service's own `/stream`), `concurrency`
 * at a time, each result written as it comes. A run holds a lease it renews while it runs: when
 * the service stops, the run ends FAILED at once; when it dies, the next start (of any instance)
 * finds the lease run out and ends it FAILED. Runs are never resumed: a half-run suite says
 * nothing about a version, and its calls' conversations are cut anyway.
 */

export const SCENARIO_TIMEOUT_MS = 120_000
const LEASE_MS = 30_000
const STOPPED = 'The service stopped during the run'
/** The conversation param that marks a call as a test call of a run. */
export const TEST_RUN_PARAM = 'voicedeskTestRun'

export interface TestRunnerOptions {
  context: OpsContext
  /** `ws://host:port` of this service's listening socket; undefined while it does not listen. */
  streamBase: () => string | undefined
  /** One scenario's limit (RuntimeConfig.testRuns.scenarioTimeoutMs); 2 minutes by default. */
  scenarioTimeoutMs?: number
  /** How long a caller with nothing left to say waits for the call to end before hanging up. */
  endGraceMs?: number
  log: { error(fields: Record<string, unknown>, message: string): void }
  /** A voice for spoken callers (the calls' own speech engine): text to 16 kHz PCM16. */
  speak?: (text: string, voiceId: string, signal?: AbortSignal) => Promise<Int16Array>
}

/** A caller's voice in `lang` that is not the agent's own, so the two sound apart in the recording. */
function callerVoice(lang: 'ar' | 'en', agentVoiceId: string): string {
  const voices = VOICES.filter((voice) => voice.lang === lang)
  return (voices.find((voice) => voice.id !== agentVoiceId) ?? voices[0] ?? present(VOICES[0], 'a voice')).id
}

export interface RunRequest {
  caller: Caller
  /** The caller's key, held in memory for the run's sockets only (never stored). */
  apiKey: string
  agent: VoiceAgentRecord
  agentVersion: number | null
  suite: TestSuite
  concurrency: number
  repeat: number
  /** Called once the run has ended (the operator's run ticket is revoked here). */
  onEnd?: () => void
}

interface Planned {
  scenario: Scenario
  round: number
}

function pendingResult({ scenario, round }: Planned): ScenarioResult {
  return {
    name: scenario.name,
    round,
    status: 'PENDING',
    pass: false,
    fields: [],
    error: null,
    turns: 0,
    endReason: null,
    firstAudioMs: null,
    voiceToVoiceMs: null,
    conversationId: null,
  }
}

export class TestRunner {
  private readonly active = new Map<string, { abort: AbortController; done: Promise<void> }>()
  private stopped = false

  constructor(private readonly options: TestRunnerOptions) {}

  /** Ends FAILED the runs a service that died left RUNNING (their lease ran out). */
  async start(): Promise<void> {
    const { context } = this.options
    await context.store.testRuns.failAbandonedRuns(context.now().getTime(), STOPPED, timestamp(context))
  }

  get listening(): boolean {
    return this.options.streamBase() !== undefined
  }

  /** Stores the run RUNNING and starts it; answers its record at once. */
  async begin(request: RunRequest): Promise<TestRunRecord> {
    const { context } = this.options
    const planned: Planned[] = []
    for (let round = 1; round <= request.repeat; round += 1)
      for (const scenario of request.suite.scenarios) planned.push({ scenario, round })
    const at = timestamp(context)
    const record: TestRunRecord = {
      id: randomUUID(),
      projectId: request.caller.projectId,
      agentId: request.agent.id,
      agentVersion: request.agentVersion,
      status: 'RUNNING',
      error: null,
      concurrency: request.concurrency,
      repeat: request.repeat,
      results: planned.map(pendingResult),
      leaseUntil: context.now().getTime() + LEASE_MS,
      createdAt: at,
      updatedAt: at,
    }
    await context.store.testRuns.insertRun(record)
    const abort = new AbortController()
    const done = this.execute(record, planned, request, abort.signal).catch((error: unknown) =>
      this.options.log.error({ err: error, runId: record.id }, 'a test run failed'),
    )
    this.active.set(record.id, { abort, done })
    void done.finally(() => {
      this.active.delete(record.id)
      request.onEnd?.()
    })
    return record
  }

  /** Hangs up every running scenario and ends their runs FAILED; no run starts after. */
  async stop(): Promise<void> {
    this.stopped = true
    const running = [...this.active.values()]
    for (const run of running) run.abort.abort()
    await Promise.all(running.map((run) => run.done))
  }

  private async execute(record: TestRunRecord, planned: Planned[], request: RunRequest, signal: AbortSignal): Promise<void> {
    const { context } = this.options
    const results = record.results as ScenarioResult[]
    let writing = Promise.resolve()
    // Writes are chained: a slow write never lands after a newer one.
    const save = (status: TestRunRecord['status'], error: string | null) => {
      const progress = {
        status,
        error,
        results: [...results],
        leaseUntil: status === 'RUNNING' ? context.now().getTime() + LEASE_MS : null,
        updatedAt: timestamp(context),
      }
      writing = writing.then(async () => {
        await context.store.testRuns.saveRun(record.id, progress)
      })
      return writing
    }
    const renew = setInterval(() => void save('RUNNING', null).catch(() => {}), LEASE_MS / 3)
    try {
      let next = 0
      const worker = async () => {
        while (next < planned.length && !signal.aborted) {
          const index = next
          next += 1
          const scenario = present(planned[index], 'a planned scenario')
          results[index] = { ...pendingResult(scenario), status: 'RUNNING' }
          // Written at once: a reader (the Tests tab, the CLI) sees which scenarios are under way.
          await save('RUNNING', null)
          results[index] = await this.runScenario(record.id, scenario, request, signal)
          await save('RUNNING', null)
        }
      }
      await Promise.all(Array.from({ length: Math.min(request.concurrency, planned.length) }, worker))
      if (signal.aborted) {
        for (const [index, result] of results.entries())
          if (result.status === 'PENDING' || result.status === 'RUNNING')
            results[index] = { ...result, status: 'FAILED', error: `Not run: ${STOPPED.toLowerCase()}` }
        await save('FAILED', STOPPED)
        return
      }
      await save(results.every((result) => result.pass) ? 'PASSED' : 'FAILED', null)
    } finally {
      clearInterval(renew)
      await writing.catch(() => {})
    }
  }

  private async runScenario(
    runId: string,
    { scenario, round }: Planned,
    request: RunRequest,
    signal: AbortSignal,
  ): Promise<ScenarioResult> {
    const { context } = this.options
    const result = pendingResult({ scenario, round })
    const failed = (error: string): ScenarioResult => ({ ...result, status: 'FAILED', error })
    try {
      const spoken = scenario.mode === 'spoken'
      const { speak } = this.options
      if (spoken) {
        const engines = await context.callEngines()
        if (!engines.stt)
          return failed('Refused: a spoken scenario needs a speech-recognition engine, and none is configured (Settings, or --stt-url)')
        if (!speak) return failed('Refused: this service has no voice for a spoken caller')
      }
      const base = this.options.streamBase()
      if (base === undefined || this.stopped) return failed('Not run: the service is not listening')
      const params = { ...scenario.params, [TEST_RUN_PARAM]: runId }
      const { jobId } = await initConversation(context, request.caller, { voiceAgentId: request.agent.id, params })
      const lang = scenario.language ?? request.agent.lang
      const voiceId = callerVoice(lang, request.agent.voiceId)
      const call = await runScenarioCall({
        // Typed callers do not listen: unpaced, each agent turn arrives whole instead of in real time. Spoken ones hear it played.
        url: `${base}/stream/${jobId}?api_key=${encodeURIComponent(request.apiKey)}${spoken ? '' : '&playback=unpaced'}`,
        caller: simulatedCaller(scenario, lang, request.agent.outcomeResponseShape as OutcomeShape | null),
        timeoutMs: this.options.scenarioTimeoutMs ?? SCENARIO_TIMEOUT_MS,
        endGraceMs: this.options.endGraceMs ?? 1_500,
        signal,
        ...(spoken && speak
          ? { speech: { synthesise: (line: string) => speak(line, voiceId, signal), endOfTurnSilenceMs: request.agent.endOfTurnSilenceMs } }
          : {}),
      })
      return { ...(await this.score(request.caller, jobId, scenario, call)), name: scenario.name, round }
    } catch (error) {
      return failed(`The scenario could not run: ${error instanceof Error ? error.message : String(error)}`)
    }
  }

  /** Reads the conversation once it ended and scores it; a call that did not run to its end fails whatever it holds. */
  private async score(caller: Caller, jobId: string, scenario: Scenario, call: ScenarioCallReport): Promise<ScenarioResult> {
    const { context } = this.options
    let conversation = await getConversation(context, caller, jobId)
    // The call's last write follows its socket's close by a moment (a call that never started has none to wait for).
    const ending = () => conversation.status === 'IN_PROGRESS' || (conversation.status === 'PENDING' && call.error === null)
    for (let wait = 0; wait < 100 && ending(); wait += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      conversation = await getConversation(context, caller, jobId)
    }
    const { records: deliveries } = await context.store.webhookDeliveries.list(caller.projectId, { jobId, limit: 100, offset: 0 })
    const score = scoreCall(scenario.expect, {
      outcome: conversation.outcomeResult,
      endReason: conversation.endReason,
      turns: conversation.transcript.filter((turn) => turn.role === 'caller').length,
      webhooks: deliveries.map((delivery) => delivery.event),
      callDate: new Date(conversation.startedAt ?? conversation.createdAt),
    })
    const pass = score.pass && call.error === null
    return {
      name: scenario.name,
      round: 1,
      status: pass ? 'PASSED' : 'FAILED',
      pass,
      fields: score.fields,
      error: call.error,
      turns: conversation.transcript.filter((turn) => turn.role === 'caller').length,
      endReason: conversation.endReason,
      firstAudioMs: call.firstAudioMs,
      voiceToVoiceMs: percentile(call.voiceToVoiceMs, 0.5),
      conversationId: jobId,
    }
  }
}
