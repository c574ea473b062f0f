import { AGENT_LIMITS, type Tools, type UpdateVoiceAgentBody } from '../../../shared/api/voice-agents'
import type { OperatorAgent as VoiceAgent } from '../../../shared/ipc/operations'
import { checkOutcomeShapeText, outcomeShapeToText } from './outcome-shape-text'
import { sameJson } from './stable-json'

export interface ParamRow {
  key: string
  value: string
}

/** What the agent editor holds while the operator types: text where the operator types text. */
export interface AgentDraft {
  agentName: string
  lang: 'ar' | 'en'
  voiceId: string
  greetingMessage: string
  preamble: string
  params: ParamRow[]
  pokeMessages: string[]
  silenceThreshold: string
  /** Turn-taking, as typed: whole milliseconds and whole seconds. */
  endOfTurnSilenceMs: string
  maxCallerTurnSeconds: string
  interrupt: boolean
  realTime: boolean
  /** The agent's switches as saved (the operator UI's agents carry them; /v1 keeps them write-only); sent whole when changed. */
  tools: Required<Tools>
  outcome: string
  outcomeShapeText: string
  webhookUrl: string
  webhookAuthKey: string
  /** Write-only: '' keeps the stored secret. */
  webhookAuthSecret: string
}

export function draftFromAgent(agent: VoiceAgent): AgentDraft {
  return {
    agentName: agent.agentName,
    lang: agent.lang,
    voiceId: agent.voiceRecordId,
    greetingMessage: agent.greetingMessage,
    preamble: agent.preamble,
    params: Object.entries(agent.params).map(([key, value]) => ({ key, value })),
    pokeMessages: [...agent.pokeMessages],
    silenceThreshold: String(agent.silenceThreshold),
    endOfTurnSilenceMs: String(agent.endOfTurnSilenceMs),
    maxCallerTurnSeconds: String(agent.maxCallerTurnSeconds),
    interrupt: agent.interrupt,
    realTime: agent.realTime,
    tools: { genderDetection: agent.tools.genderDetection, smartCallEnd: agent.tools.smartCallEnd },
    outcome: agent.outcome,
    outcomeShapeText: outcomeShapeToText(agent.outcomeResponseShape),
    webhookUrl: agent.webhookUrl ?? '',
    webhookAuthKey: agent.webhookAuth?.authKey ?? '',
    webhookAuthSecret: '',
  }
}

/** Params rows as the record the service stores; blank rows are dropped. */
export function paramsOf(rows: readonly ParamRow[]): Record<string, string> {
  const params: Record<string, string> = {}
  for (const row of rows) {
    if (row.key.trim() === '' && row.value === '') continue
    params[row.key.trim()] = row.value
  }
  return params
}

/** A problem found before sending, keyed like the service's error details (top-level field). */
export interface DraftProblem {
  field: keyof UpdateVoiceAgentBody
  /** What is wrong, as a dictionary key the UI translates; `detail` is shown as written. */
  problem: 'duplicateParam' | 'wholeSeconds' | 'wholeNumber' | 'atLeast' | 'atMost' | 'invalidShape' | 'secretNeeded'
  detail?: string
  /** The bound a number missed (atLeast, atMost): the API's own limit, said as the API's refusal is. */
  n?: number
}

/** The integer fields the editor checks against the API's own bounds before sending, so a refusal is said at once. */
const BOUNDED_INTEGERS = [
  ['endOfTurnSilenceMs', AGENT_LIMITS.endOfTurnSilenceMsMin, AGENT_LIMITS.endOfTurnSilenceMsMax],
  ['maxCallerTurnSeconds', AGENT_LIMITS.maxCallerTurnSecondsMin, AGENT_LIMITS.maxCallerTurnSecondsMax],
] as const

/** A typed whole number within [min, max], or the problem with it (the same words the API's refusal is shown in). */
function boundedInteger(text: string, min: number, max: number): { value: number } | Pick<DraftProblem, 'problem' | 'n'> {
  const trimmed = text.trim()
  if (!/^-?\d+$/.test(trimmed)) return { problem: 'wholeNumber' }
  const value = Number(trimmed)
  if (value < min) return { problem: 'atLeast', n: min }
  if (value > max) return { problem: 'atMost', n: max }
  return { value }
}

export interface DraftDiff {
  /** Only the fields that differ from the stored agent: what agents.update is sent. */
  changes: UpdateVoiceAgentBody
  problems: DraftProblem[]
}

/**
 * The changed fields of a draft against the stored agent. Obvious local problems (JSON that does
 * not parse, duplicate param names) are reported instead of sent; everything else is left to the
 * service, whose error details are shown beside their fields.
 */
export function diffAgentDraft(agent: VoiceAgent, draft: AgentDraft): DraftDiff {
  const changes: UpdateVoiceAgentBody = {}
  const problems: DraftProblem[] = []

  if (draft.agentName !== agent.agentName) changes.agentName = draft.agentName
  if (draft.lang !== agent.lang) changes.lang = draft.lang
  if (draft.voiceId !== agent.voiceRecordId) changes.voiceId = draft.voiceId
  if (draft.greetingMessage !== agent.greetingMessage) changes.greetingMessage = draft.greetingMessage
  if (draft.preamble !== agent.preamble) changes.preamble = draft.preamble
  if (draft.interrupt !== agent.interrupt) changes.interrupt = draft.interrupt
  if (draft.realTime !== agent.realTime) changes.realTime = draft.realTime
  if (draft.outcome !== agent.outcome) changes.outcome = draft.outcome
  if (!sameJson(draft.tools, draftFromAgent(agent).tools)) changes.tools = { ...draft.tools }

  const keys = draft.params.map((row) => row.key.trim()).filter((key) => key !== '')
  const duplicate = keys.find((key, index) => keys.indexOf(key) !== index)
  if (duplicate !== undefined) problems.push({ field: 'params', problem: 'duplicateParam', detail: duplicate })
  else {
    const params = paramsOf(draft.params)
    if (!sameJson(params, agent.params)) changes.params = params
  }

  const pokes = draft.pokeMessages.filter((message) => message.trim() !== '')
  if (!sameJson(pokes, agent.pokeMessages)) changes.pokeMessages = pokes

  const threshold = draft.silenceThreshold.trim()
  if (!/^-?\d+$/.test(threshold)) problems.push({ field: 'silenceThreshold', problem: 'wholeSeconds' })
  else if (Number(threshold) !== agent.silenceThreshold) changes.silenceThreshold = Number(threshold)

  for (const [field, min, max] of BOUNDED_INTEGERS) {
    const checked = boundedInteger(draft[field], min, max)
    if (!('value' in checked)) problems.push({ field, ...checked })
    else if (checked.value !== agent[field]) changes[field] = checked.value
  }

  const shape = checkOutcomeShapeText(draft.outcomeShapeText)
  if (!shape.ok)
    // What is wrong is said by the shape editor's own status line, as the operator types.
    problems.push({ field: 'outcomeResponseShape', problem: 'invalidShape' })
  else if (!sameJson(shape.shape, agent.outcomeResponseShape)) changes.outcomeResponseShape = shape.shape

  const webhookUrl = draft.webhookUrl.trim() === '' ? null : draft.webhookUrl.trim()
  if (webhookUrl !== agent.webhookUrl) changes.webhookUrl = webhookUrl

  const authKey = draft.webhookAuthKey.trim()
  const stored = agent.webhookAuth
  if (authKey === '' && draft.webhookAuthSecret === '') {
    if (stored !== null) changes.webhookAuth = null
  } else if (draft.webhookAuthSecret !== '') {
    changes.webhookAuth = { authKey, authSecret: draft.webhookAuthSecret }
  } else if (stored === null || authKey !== stored.authKey) {
    problems.push({ field: 'webhookAuth', problem: 'secretNeeded' })
  }

  return { changes, problems }
}

export function hasChanges(diff: DraftDiff): boolean {
  return Object.keys(diff.changes).length > 0
}

/**
 * Whether the draft is not the saved agent any more, whatever is invalid in it (a threshold
 * that is not a number still differs): what marks it unsaved and keeps Revert possible.
 */
export function draftDiffers(agent: VoiceAgent, draft: AgentDraft): boolean {
  return !sameJson(draft, draftFromAgent(agent))
}
