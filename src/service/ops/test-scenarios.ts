import type { Conversation } from '../../shared/api/conversations'
import { MAX_SUITE_SCENARIOS, type AddScenarioBody, type Matcher, type Scenario, type TestSuite } from '../../shared/api/test-suites'
import { PLACEHOLDER_NAME } from '../../shared/api/voice-agents'
import { getConversation } from './conversations'
import type { Caller, OpsContext } from './ops-context'
import { timestamp } from './ops-context'
import { ServiceError } from './service-error'
import { requireAgentForChange } from './voice-agents'
import { readStoredSuite, type StoredSuite } from './test-runs'
import { TEST_RUN_PARAM } from '../test-runs/test-runner'

/*
 * Scenarios from past calls (docs/api.md, "Test suites and runs"): a call that went wrong, or
 * right, replayed against the next version of its agent. The caller's turns become a scripted
 * caller, and the call's outcome the expectation, its dates counted from the call's own day so
 * that "tomorrow" still means the day after the replay.
 */

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/
const DAY_MS = 86_400_000

/** A stored date as a relative matcher (`today+1`), counted from the call's local day; undefined when it is not a date. */
function relativeDate(value: string, callDate: Date): Matcher | undefined {
  const day = ISO_DAY.exec(value)
  if (!day) return undefined
  const target = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))
  const from = Date.UTC(callDate.getFullYear(), callDate.getMonth(), callDate.getDate())
  const offset = Math.round((target - from) / DAY_MS)
  if (Math.abs(offset) > 999) return undefined
  const date = offset === 0 ? 'today' : `today${offset > 0 ? '+' : ''}${offset}`
  // A datetime keeps its time too: only one matcher per field, so the date is what is checked.
  return { date }
}

/** The outcome's leaves as field paths (`unit.bedrooms`) with what each must be on the replay. Empty values say nothing. */
function expectationOf(outcome: unknown, callDate: Date, path: string[] = []): [string, Matcher][] {
  if (outcome === null || typeof outcome !== 'object' || Array.isArray(outcome)) return []
  return Object.entries(outcome as Record<string, unknown>).flatMap(([key, value]): [string, Matcher][] => {
    const field = [...path, key]
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return expectationOf(value, callDate, field)
    if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return []
    if (typeof value === 'string') return [[field.join('.'), relativeDate(value, callDate) ?? value.slice(0, 4_000)]]
    if (Array.isArray(value)) return value.length <= 100 ? [[field.join('.'), value]] : []
    if (typeof value === 'number' || typeof value === 'boolean') return [[field.join('.'), value]]
    return []
  })
}

/** `GET /_voicedesk/conversations/{jobId}/test-scenario`: the call as a scenario (nothing is stored). */
export async function scenarioFromConversation(context: OpsContext, caller: Caller, jobId: string): Promise<Scenario> {
  const call = await getConversation(context, caller, jobId)
  if (call.status === 'PENDING' || call.status === 'IN_PROGRESS')
    throw new ServiceError('CONFLICT', `Conversation ${jobId} is ${call.status}: a scenario is made from a call that ended`)
  const lines = callerLines(call)
  if (lines.length === 0)
    throw new ServiceError(
      'CONFLICT',
      `Conversation ${jobId} has no caller turns with words to replay (a silent call, or speech not recognised)`,
    )
  const callDate = new Date(call.startedAt ?? call.createdAt)
  // The call's own params; those equal to its agent's defaults are left to the agent, whose next version may change them.
  const defaults = call.voiceAgentId
    ? ((await context.store.voiceAgents.findInProject(call.voiceAgentId, caller.projectId))?.params ?? {})
    : {}
  const params = Object.fromEntries(
    Object.entries(call.params).filter(
      ([name, value]) => name !== TEST_RUN_PARAM && defaults[name] !== value && PLACEHOLDER_NAME.test(name) && value.length <= 2_000,
    ),
  )
  const outcome = Object.fromEntries(expectationOf(call.outcomeResult, callDate).slice(0, 100))
  return {
    name: `Call ${jobId.slice(0, 8)} of ${callDate.toISOString().slice(0, 16).replace('T', ' ')}`,
    mode: 'typed',
    ...(Object.keys(params).length ? { params } : {}),
    caller: { say: lines },
    expect: Object.keys(outcome).length ? { outcome } : { maxTurns: Math.min(200, lines.length + 2) },
  }
}

/** What the caller said, turn by turn (typed or recognised); turns whose words are unknown are left out. */
function callerLines(call: Conversation): string[] {
  return call.transcript
    .filter((turn) => turn.role === 'caller' && !turn.unrecognised && turn.content.trim() !== '')
    .map((turn) => turn.content.trim().slice(0, 4_000))
    .slice(0, 50)
}

/** A name not yet in the suite: "name", else "name (2)", "name (3)"… */
function freeName(suite: TestSuite | undefined, name: string): string {
  const taken = new Set(suite?.scenarios.map((scenario) => scenario.name))
  if (!taken.has(name)) return name
  for (let n = 2; ; n += 1) if (!taken.has(`${name} (${n})`)) return `${name} (${n})`
}

/**
 * `POST /_voicedesk/agents/{agentId}/test-suite/scenarios`: adds one scenario, or one made from a
 * past call, to the agent's suite (making the suite when it has none). The agent's row is locked for the change, so two
 * additions at once both land.
 */
export async function addScenario(context: OpsContext, caller: Caller, agentId: string, body: AddScenarioBody): Promise<StoredSuite> {
  const scenario = 'conversationId' in body ? await scenarioFromConversation(context, caller, body.conversationId) : body
  return context.store.transaction(async (tx) => {
    await requireAgentForChange(tx, caller, agentId)
    const record = await tx.testRuns.findSuite(agentId, caller.projectId)
    const suite = record ? readStoredSuite(record.suite) : undefined
    if ((suite?.scenarios.length ?? 0) >= MAX_SUITE_SCENARIOS)
      throw new ServiceError('CONFLICT', `The suite already holds ${MAX_SUITE_SCENARIOS} scenarios, the most a suite may: remove one first`)
    const added = { ...scenario, name: freeName(suite, scenario.name) }
    const next: TestSuite = { ...(suite ?? { agentId }), scenarios: [...(suite?.scenarios ?? []), added] }
    const updatedAt = timestamp(context)
    await tx.testRuns.putSuite({ agentId, projectId: caller.projectId, suite: next, updatedAt })
    return { agentId, suite: next, updatedAt }
  })
}
