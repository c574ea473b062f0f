import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { create } from 'xmlbuilder2'
import type { z } from 'zod'
import { ErrorEnvelopeSchema } from '../../shared/api/errors'
import {
  MAX_RUN_CONCURRENCY,
  StartedTestRunEnvelopeSchema,
  TestRunEnvelopeSchema,
  TestSuiteSchema,
  type FieldDiff,
  type ScenarioResult,
  type TestRun,
  type TestSuite,
} from '../../shared/api/test-suites'
import { DEFAULT_HOST, DEFAULT_PORT } from '../compose/config'
import { refuseExtraArguments, UsageError, type Values } from './args'
import { say } from './say'

/*
 * `voicedesk test-agent <agentId> --suite FILE`: plays a suite against an agent of a RUNNING
 * service over its HTTP admin routes (docs/api.md, "Test suites and runs"), prints a line per
 * scenario as each ends and a summary, and writes the run as JSON and JUnit XML for CI.
 * `--generate FILE` writes the agent's starter suite instead. Exit codes: 0 every scenario
 * passed, 1 one failed (or the run ended FAILED), 2 a usage or connection error, 130 Ctrl-C.
 */

/** How often the run is read while it runs. */
export const POLL_INTERVAL_MS = 500
/** The longest a single request may take (a service that accepts the socket and never answers). */
const REQUEST_TIMEOUT_MS = 30_000

/** The service could not be asked (not listening, refused the key, no such agent, an answer we cannot read): exit 2. */
class ServiceProblem extends Error {}
/** Ctrl-C during the run. */
class Interrupted extends Error {}

interface Client {
  baseUrl: string
  key: string
  signal: AbortSignal
  /** The run once started, for the words on Ctrl-C. */
  runId?: string
}

/** Runs the command; resolves to its exit code. */
export async function testAgent(values: Values, positionals: string[]): Promise<number> {
  const [agentId] = positionals
  if (agentId === undefined || agentId.trim() === '')
    throw new UsageError('test-agent needs the agent id: voicedesk test-agent <agentId> --suite FILE (or --generate FILE)')
  refuseExtraArguments('test-agent', positionals, 1, 'one agent id')
  if (values.generate !== undefined && values.suite !== undefined) throw new UsageError('Give --suite FILE or --generate FILE, not both')
  if (values.generate === undefined && values.suite === undefined)
    throw new UsageError('test-agent needs --suite FILE (the scenarios to play) or --generate FILE (to write a starter suite)')
  if (values.generate !== undefined) {
    for (const name of ['concurrency', 'repeat', 'junit', 'json'] as const)
      if (values[name] !== undefined) throw new UsageError(`--${name} goes with --suite, not --generate`)
  } else if (values.force) throw new UsageError('--force goes with --generate only')

  const baseUrl = baseUrlOf(values)
  const key = keyOf(values)
  const controller = new AbortController()
  const onSigint = () => controller.abort(new Interrupted())
  process.once('SIGINT', onSigint)
  const client: Client = { baseUrl, key, signal: controller.signal }
  try {
    if (values.generate !== undefined) {
      await generate(client, agentId, values.generate, values.force === true)
      return 0
    }
    if (values.suite === undefined) throw new UsageError('test-agent needs --suite FILE')
    const concurrency = wholeNumber(values.concurrency, '--concurrency', 1, MAX_RUN_CONCURRENCY)
    const repeat = wholeNumber(values.repeat, '--repeat', 1, 50)
    const suite = await readSuite(values.suite)
    return await runSuite(client, agentId, suite, { concurrency, repeat, junit: values.junit, json: values.json })
  } catch (error) {
    if (controller.signal.aborted && controller.signal.reason instanceof Interrupted) {
      process.stderr.write(
        client.runId
          ? `voicedesk: Interrupted; the run goes on in the service until it ends: GET /_voicedesk/test-runs/${client.runId}\n`
          : 'voicedesk: Interrupted\n',
      )
      return 130
    }
    if (error instanceof ServiceProblem) {
      process.stderr.write(`voicedesk: ${error.message}\n`)
      return 2
    }
    throw error
  } finally {
    process.off('SIGINT', onSigint)
  }
}

/** `--base-url`, else the address `voicedesk serve` listens on by default (VOICEDESK_PORT, else 8740, on 127.0.0.1). */
function baseUrlOf(values: Values): string {
  const given = values['base-url'] ?? `http://${DEFAULT_HOST}:${process.env.VOICEDESK_PORT || DEFAULT_PORT}`
  let url: URL
  try {
    url = new URL(given)
  } catch {
    throw new UsageError(`--base-url must be the service's address such as http://127.0.0.1:8740, not ${JSON.stringify(given)}`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--base-url must be an http:// or https:// address, not ${JSON.stringify(given)}`)
  if (url.username || url.password) throw new UsageError('--base-url must not hold a user name or password; pass the key with --api-key')
  return url.href.replace(/\/+$/, '')
}

/** `--api-key`, else VOICEDESK_API_KEY. Never printed, not even when it is malformed. */
function keyOf(values: Values): string {
  const key = values['api-key'] ?? process.env.VOICEDESK_API_KEY
  if (!key) throw new UsageError('test-agent needs an API key of the service: set VOICEDESK_API_KEY or pass --api-key KEY')
  // An HTTP client's own complaint about a bad header value would quote the key.
  if (!/^[\x21-\x7e]+$/.test(key)) throw new UsageError('The API key holds spaces or characters an HTTP header cannot carry')
  return key
}

function wholeNumber(given: string | undefined, option: string, min: number, max: number): number | undefined {
  if (given === undefined) return undefined
  const value = /^\s*\d+\s*$/.test(given) ? Number(given) : NaN
  if (!(value >= min && value <= max))
    throw new UsageError(`${option} must be a whole number from ${min} to ${max}, not ${JSON.stringify(given)}`)
  return value
}

/** The suite file, checked against the suite schema before anything is sent; each problem named by its path. */
async function readSuite(file: string): Promise<TestSuite> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new UsageError(`Cannot read the suite file ${file}${code ? ` (${code})` : ''}`)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`The suite file ${file} is not JSON: ${(error as Error).message}`)
  }
  const parsed = TestSuiteSchema.safeParse(json)
  if (!parsed.success) throw new UsageError(`The suite file ${file} is not a valid suite:\n${issueLines(parsed.error.issues)}`)
  return parsed.data
}

function issueLines(issues: z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 20)
    .map((issue) => `  ${issue.path.length ? issue.path.join('.') : '(the whole file)'}: ${issue.message}`)
    .join('\n')
}

/** How often a busy service's `503` (the database held by another process, with Retry-After) is waited out. */
const BUSY_RETRIES = 5

/** One request to the service; its `data` on success, a ServiceProblem in our words otherwise. */
async function request(client: Client, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    const response = await send(client, method, path, body)
    if (response.status !== 503 || attempt >= BUSY_RETRIES) return answerOf(client, method, path, response)
    await response.arrayBuffer().catch(() => undefined)
    const seconds = Number(response.headers.get('retry-after'))
    await sleep(Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 10) * 1000 : 1000, undefined, { signal: client.signal })
  }
}

async function send(client: Client, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Response> {
  try {
    return await fetch(client.baseUrl + path, {
      method,
      headers: {
        authorization: `Token ${client.key}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.any([client.signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      redirect: 'error',
    })
  } catch (error) {
    if (client.signal.aborted) throw error
    throw new ServiceProblem(unreachable(client.baseUrl, error))
  }
}

/** The answer's `data` on success, a ServiceProblem in our words otherwise. */
async function answerOf(client: Client, method: string, path: string, response: Response): Promise<unknown> {
  const url = client.baseUrl + path
  let json: unknown
  try {
    json = await response.json()
  } catch {
    if (client.signal.aborted) throw client.signal.reason
    throw new ServiceProblem(`${method} ${url} answered ${response.status} without a JSON body: is ${client.baseUrl} a VoiceDesk service?`)
  }
  if (response.ok && typeof json === 'object' && json !== null && 'data' in json) return json.data
  const failure = ErrorEnvelopeSchema.safeParse(json)
  if (!failure.success) throw new ServiceProblem(`${method} ${url} answered ${response.status}, not in VoiceDesk's envelope`)
  const { code, details } = failure.data.error
  const detailText = details.length ? ':\n' + details.map((detail) => `  ${detail.path}: ${detail.message}`).join('\n') : ''
  const hint =
    response.status === 401
      ? ' (check VOICEDESK_API_KEY or --api-key: a key of this service, from "voicedesk keys create")'
      : response.status === 404 && failure.data.message.startsWith('No route')
        ? ` (is ${client.baseUrl} an older VoiceDesk?)`
        : response.status === 404 && path.startsWith('/_voicedesk/agents/')
          ? ' (check the agent id: GET /v1/voice-agents lists the key’s agents)'
          : ''
  throw new ServiceProblem(`The service answered ${response.status} ${code}: ${failure.data.message}${hint}${detailText}`)
}

/** Why a fetch failed, in words; never the request itself (its headers hold the key). */
function unreachable(baseUrl: string, error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause
  const name = (error as Error).name
  const why = name === 'TimeoutError' ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s` : (cause?.code ?? 'the connection failed')
  return `Cannot reach the VoiceDesk service at ${baseUrl} (${why}): start it with "voicedesk serve", or point --base-url at it`
}

async function generate(client: Client, agentId: string, file: string, force: boolean): Promise<void> {
  // Asked first so an edited suite is never at stake; the exclusive write below settles a race.
  if (!force && existsSync(file)) throw new UsageError(`${file} exists already; pass --force to replace it`)
  const data = await request(client, 'GET', `/_voicedesk/agents/${encodeURIComponent(agentId)}/test-suite/starter`)
  // The starter answers a suite as `data`; accept it wrapped as GET …/test-suite wraps one too.
  const candidate = typeof data === 'object' && data !== null && 'suite' in data ? data.suite : data
  const suite = TestSuiteSchema.safeParse(candidate)
  if (!suite.success) throw new ServiceProblem(`The service's starter suite is not a valid suite:\n${issueLines(suite.error.issues)}`)
  try {
    await writeFile(file, JSON.stringify(suite.data, null, 2) + '\n', { flag: force ? 'w' : 'wx' })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') throw new UsageError(`${file} exists already; pass --force to replace it`)
    throw new UsageError(`Cannot write ${file}${code ? ` (${code})` : ''}`)
  }
  const count = suite.data.scenarios.length
  say(`Wrote a starter suite of ${count} scenario${count === 1 ? '' : 's'} to ${file}.`)
  say(`Edit it, then run: voicedesk test-agent ${agentId} --suite ${file}`)
}

interface RunOptions {
  concurrency: number | undefined
  repeat: number | undefined
  junit: string | undefined
  json: string | undefined
}

async function runSuite(client: Client, agentId: string, suite: TestSuite, options: RunOptions): Promise<number> {
  const started = StartedTestRunEnvelopeSchema.shape.data.safeParse(
    await request(client, 'POST', `/_voicedesk/agents/${encodeURIComponent(agentId)}/test-runs`, {
      suite,
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.repeat === undefined ? {} : { repeat: options.repeat }),
    }),
  )
  if (!started.success) throw new ServiceProblem('The service answered the start of the run with something else than { id, status }')
  const runId = started.data.id
  client.runId = runId
  const count = suite.scenarios.length
  const rounds = options.repeat !== undefined && options.repeat > 1 ? `, ${options.repeat} rounds` : ''
  say(`Run ${runId}: ${count} scenario${count === 1 ? '' : 's'}${rounds} against agent ${agentId}`)

  const printed = new Set<number>()
  let run: TestRun
  for (;;) {
    const parsed = TestRunEnvelopeSchema.shape.data.safeParse(
      await request(client, 'GET', `/_voicedesk/test-runs/${encodeURIComponent(runId)}`),
    )
    if (!parsed.success) throw new ServiceProblem(`The run ${runId} as the service answered it is not a test run`)
    run = parsed.data
    run.results.forEach((result, index) => {
      if ((result.status === 'PASSED' || result.status === 'FAILED') && !printed.has(index)) {
        printed.add(index)
        say(resultLine(result, run.repeat))
      }
    })
    if (run.status !== 'RUNNING') break
    await sleep(POLL_INTERVAL_MS, undefined, { signal: client.signal })
  }
  // A run that ended FAILED on its own (a service stop) may leave scenarios it never played.
  run.results.forEach((result, index) => {
    if (!printed.has(index)) say(resultLine({ ...result, pass: false }, run.repeat))
  })
  for (const line of summaryLines(run)) say(line)
  if (options.json) await writeOutput(options.json, JSON.stringify(run, null, 2) + '\n')
  if (options.junit) await writeOutput(options.junit, junitXml(run))
  const allPassed = run.status === 'PASSED' && run.results.every((result) => result.pass)
  return allPassed ? 0 : 1
}

async function writeOutput(file: string, text: string): Promise<void> {
  try {
    await writeFile(file, text)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new ServiceProblem(`Cannot write ${file}${code ? ` (${code})` : ''}`)
  }
}

const MAX_VALUE_CHARS = 120

/** A value as the line shows it: JSON, cut short when long; "nothing" when the outcome had no such field. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing'
  // JSON has no word for a function or a symbol; a run's values are JSON, so this is a safeguard.
  const text = (JSON.stringify(value) as string | undefined) ?? typeof value
  return text.length > MAX_VALUE_CHARS ? text.slice(0, MAX_VALUE_CHARS - 1) + '…' : text
}

/** `guestName: expected "Someone Else", got "Sara Haddad"`. */
export function diffText(diff: FieldDiff): string {
  return `${diff.field}: expected ${shown(diff.expected)}, got ${shown(diff.got)}`
}

function scenarioName(result: ScenarioResult, repeat: number): string {
  return repeat > 1 ? `${result.name} (round ${result.round})` : result.name
}

function failureParts(result: ScenarioResult): string[] {
  const parts = result.fields.filter((diff) => !diff.pass).map(diffText)
  if (result.error) parts.push(`error: ${result.error}`)
  return parts
}

/** `PASS  booking  [conversation …]` or `FAIL  booking (round 2)  guestName: expected …, got …; error: …  [conversation …]`. */
export function resultLine(result: ScenarioResult, repeat: number): string {
  const parts = [result.pass ? 'PASS' : 'FAIL', scenarioName(result, repeat)]
  const failures = result.pass ? [] : failureParts(result)
  if (failures.length) parts.push(failures.join('; '))
  if (result.conversationId) parts.push(`[conversation ${result.conversationId}]`)
  return parts.join('  ')
}

function ms(value: number | null): string {
  return value === null ? '-' : `${Math.round(value)} ms`
}

function summaryLines(run: TestRun): string[] {
  const { summary } = run
  const lines = [
    `${run.status === 'PASSED' ? 'PASSED' : 'FAILED'}: ${summary.passed} passed, ${summary.failed} failed of ${summary.scenarios}` +
      (run.agentVersion === null ? '' : ` (agent version ${run.agentVersion})`),
    `first audio p50 ${ms(summary.firstAudioMs.p50)}, p95 ${ms(summary.firstAudioMs.p95)}; ` +
      `voice-to-voice p50 ${ms(summary.voiceToVoiceMs.p50)}, p95 ${ms(summary.voiceToVoiceMs.p95)}`,
  ]
  if (run.error) lines.push(`The run failed: ${run.error}`)
  return lines
}

function seconds(fromIso: string, toIso: string): string {
  const elapsed = (Date.parse(toIso) - Date.parse(fromIso)) / 1000
  return (Number.isFinite(elapsed) && elapsed > 0 ? elapsed : 0).toFixed(3)
}

/**
 * The run as JUnit XML, as Jenkins, GitLab and GitHub test reporters read it: one testsuite for
 * the run, one testcase per scenario and round; a failed check is a `failure` whose message is
 * the field diffs, a scenario that could not run or finish an `error`.
 */
export function junitXml(run: TestRun): string {
  const failures = run.results.filter((result) => !result.pass && !result.error).length
  const errors = run.results.filter((result) => !result.pass && result.error).length
  const time = seconds(run.createdAt, run.updatedAt)
  const document = create({ version: '1.0', encoding: 'UTF-8', invalidCharReplacement: '\uFFFD' })
  const suites = document.ele('testsuites', { name: 'voicedesk test-agent', tests: run.results.length, failures, errors, time })
  const suite = suites.ele('testsuite', {
    name: `agent ${run.agentId}${run.agentVersion === null ? '' : ` v${run.agentVersion}`}`,
    id: run.id,
    package: 'voicedesk',
    tests: run.results.length,
    failures,
    errors,
    skipped: 0,
    time,
    // xs:dateTime without a zone, as the JUnit schema has it.
    timestamp: run.createdAt.slice(0, 19),
    hostname: hostname(),
  })
  const properties = suite.ele('properties')
  const property = (name: string, value: string | number | null) => {
    if (value !== null) properties.ele('property', { name, value: String(value) })
  }
  property('runId', run.id)
  property('agentId', run.agentId)
  property('agentVersion', run.agentVersion)
  property('status', run.status)
  property('concurrency', run.concurrency)
  property('repeat', run.repeat)
  property('firstAudioMs.p50', run.summary.firstAudioMs.p50)
  property('firstAudioMs.p95', run.summary.firstAudioMs.p95)
  property('voiceToVoiceMs.p50', run.summary.voiceToVoiceMs.p50)
  property('voiceToVoiceMs.p95', run.summary.voiceToVoiceMs.p95)
  for (const result of run.results) {
    const testcase = suite.ele('testcase', { name: scenarioName(result, run.repeat), classname: `voicedesk.agent.${run.agentId}` })
    if (!result.pass) {
      const diffs = result.fields.filter((diff) => !diff.pass).map(diffText)
      const message = failureParts(result).join('; ') || `The scenario ended ${result.status}`
      const text = [...diffs, ...(result.error ? [`error: ${result.error}`] : [])].join('\n') || message
      testcase.ele(result.error ? 'error' : 'failure', { message, type: result.error ? 'error' : 'expectation' }).txt(text)
    }
    const facts = [
      result.conversationId && `conversation ${result.conversationId}`,
      `turns ${result.turns}`,
      result.endReason && `end reason ${result.endReason}`,
      `first audio ${ms(result.firstAudioMs)}`,
      `voice-to-voice ${ms(result.voiceToVoiceMs)}`,
    ].filter(Boolean)
    testcase.ele('system-out').txt(facts.join('\n'))
  }
  return document.end({ prettyPrint: true }) + '\n'
}
