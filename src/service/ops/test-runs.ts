import type { OutcomeShape } from '../../shared/api/outcome-shape'
import {
  MAX_RUN_SCENARIOS,
  ScenarioResultSchema,
  TestSuiteSchema,
  type ScenarioResult,
  type StartTestRunBody,
  type TestRun,
  type TestSuite,
} from '../../shared/api/test-suites'
import type { TestRunRecord } from '../../store/records'
import type { z } from 'zod'
import { percentile } from '../test-runs/scoring'
import { starterSuite } from '../test-runs/starter-suite'
import type { TestRunner } from '../test-runs/test-runner'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { invalid, notFound, ServiceError } from './service-error'
import { requireAgent } from './voice-agents'

/*
 * Agent test suites and runs (docs/api.md, "Test suites and runs"): one suite per agent, runs
 * started from it (or from a suite sent with the run) and read back with their results.
 */

/** Stored JSON re-validated: a row written by another build fails loudly here, not deep in a client. */
function readStoredJson<T extends z.ZodType>(schema: T, value: unknown, what: string): z.infer<T> {
  const result = schema.safeParse(value)
  if (!result.success) throw new Error(`Stored ${what} is not valid: ${result.error.message}`)
  return result.data
}

export interface StoredSuite {
  agentId: string
  suite: TestSuite
  updatedAt: string
}

function checkSuiteAgent(suite: TestSuite, agentId: string, path: string): void {
  if (suite.agentId !== undefined && suite.agentId !== agentId)
    throw invalid(`${path}agentId`, `The suite is for agent ${JSON.stringify(suite.agentId)}, not ${JSON.stringify(agentId)}`)
}

export async function putTestSuite(context: OpsContext, caller: Caller, agentId: string, suite: TestSuite): Promise<StoredSuite> {
  await requireAgent(context.store, caller, agentId)
  checkSuiteAgent(suite, agentId, '')
  const updatedAt = timestamp(context)
  await context.store.testRuns.putSuite({ agentId, projectId: caller.projectId, suite, updatedAt })
  return { agentId, suite, updatedAt }
}

/** A suite as stored, checked. */
export const readStoredSuite = (value: unknown): TestSuite => readStoredJson(TestSuiteSchema, value, 'test suite')

async function storedSuite(context: OpsContext, caller: Caller, agentId: string): Promise<StoredSuite | undefined> {
  const record = await context.store.testRuns.findSuite(agentId, caller.projectId)
  return record && { agentId, suite: readStoredSuite(record.suite), updatedAt: record.updatedAt }
}

/** The agent's suite, or null when it has none yet (the operator's tests.getSuite); an unknown agent is NOT_FOUND. */
export async function findTestSuite(context: OpsContext, caller: Caller, agentId: string): Promise<StoredSuite | null> {
  await requireAgent(context.store, caller, agentId)
  return (await storedSuite(context, caller, agentId)) ?? null
}

export async function getTestSuite(context: OpsContext, caller: Caller, agentId: string): Promise<StoredSuite> {
  const stored = await findTestSuite(context, caller, agentId)
  if (!stored) throw new ServiceError('NOT_FOUND', `Agent ${JSON.stringify(agentId)} has no test suite yet: PUT one to this URL`)
  return stored
}

/** `GET …/test-suite/starter`: a suite generated from the agent's outcome shape and language; nothing is stored. */
export async function getStarterTestSuite(context: OpsContext, caller: Caller, agentId: string): Promise<TestSuite> {
  const agent = await requireAgent(context.store, caller, agentId)
  return starterSuite({ id: agent.id, lang: agent.lang, outcomeResponseShape: agent.outcomeResponseShape as OutcomeShape | null })
}

/**
 * `POST …/test-runs`: the run starts at once and is answered RUNNING; its results come in as its
 * scenarios end. Its calls connect over /stream with `apiKey`; `onEnd` is called once the run
 * that started has ended (not when it is refused).
 */
export async function startTestRun(
  context: OpsContext,
  runner: TestRunner,
  caller: Caller,
  apiKey: string,
  agentId: string,
  body: StartTestRunBody,
  onEnd?: () => void,
): Promise<{ id: string; status: TestRun['status'] }> {
  const agent = await requireAgent(context.store, caller, agentId)
  if (body.suite) checkSuiteAgent(body.suite, agentId, 'suite.')
  const suite = body.suite ?? (await storedSuite(context, caller, agentId))?.suite
  if (!suite)
    throw new ServiceError(
      'CONFLICT',
      `Agent ${JSON.stringify(agentId)} has no stored test suite: send one as "suite", or PUT it to /_voicedesk/agents/${agentId}/test-suite`,
    )
  if (suite.scenarios.length * body.repeat > MAX_RUN_SCENARIOS)
    throw invalid('repeat', `A run holds at most ${MAX_RUN_SCENARIOS} scenarios (scenarios × repeat)`)
  if (!runner.listening) throw new ServiceError('CONFLICT', 'Test runs call this service over its socket: start it listening first')
  const agentVersion = (await context.store.voiceAgents.latestVersion(agent.id, caller.projectId)) ?? null
  const record = await runner.begin({
    caller,
    apiKey,
    agent,
    agentVersion,
    suite,
    concurrency: body.concurrency,
    repeat: body.repeat,
    onEnd,
  })
  return { id: record.id, status: record.status }
}

function summaryOf(results: ScenarioResult[]): TestRun['summary'] {
  const finished = results.filter((result) => result.status === 'PASSED' || result.status === 'FAILED')
  const percentiles = (values: number[]) => ({
    p50: percentile(values, 0.5),
    p95: percentile(values, 0.95),
    p99: percentile(values, 0.99),
  })
  const measured = (pick: (result: ScenarioResult) => number | null) =>
    finished.map(pick).filter((value): value is number => value !== null)
  return {
    scenarios: results.length,
    finished: finished.length,
    passed: finished.filter((result) => result.pass).length,
    failed: finished.filter((result) => !result.pass).length,
    firstAudioMs: percentiles(measured((result) => result.firstAudioMs)),
    voiceToVoiceMs: percentiles(measured((result) => result.voiceToVoiceMs)),
  }
}

function toTestRunDto(record: TestRunRecord): TestRun {
  const results = record.results.map((result) => readStoredJson(ScenarioResultSchema, result, 'test run result'))
  return {
    id: record.id,
    agentId: record.agentId,
    agentVersion: record.agentVersion,
    status: record.status,
    error: record.error,
    concurrency: record.concurrency,
    repeat: record.repeat,
    results,
    summary: summaryOf(results),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

export async function getTestRun(context: OpsContext, caller: Caller, id: string): Promise<TestRun> {
  const record = await context.store.testRuns.findRun(id, caller.projectId)
  if (!record) throw notFound('test run', id)
  return toTestRunDto(record)
}

/** The agent's runs, newest first. */
export async function listTestRuns(context: OpsContext, caller: Caller, agentId: string, take: number): Promise<{ runs: TestRun[] }> {
  await requireAgent(context.store, caller, agentId)
  return { runs: (await context.store.testRuns.listRuns(agentId, caller.projectId, take)).map(toTestRunDto) }
}
