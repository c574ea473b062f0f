import { diffLines } from 'diff'
import type { VoiceAgent } from '../../../shared/api/voice-agents'
import { outcomeShapeToText } from './outcome-shape-text'
import { stableJson } from './stable-json'

/*
 * The History tab's reading of versions (docs/api.md, "Agent versions"): where a version came
 * from, and what differs between it and the agent now, field by field, long texts line by line.
 */

/** What made a version, from its `source`; an unknown source (a newer service) is shown as written. */
export type VersionOrigin =
  | { kind: 'create' | 'update' | 'ui' | 'import' | 'migration' }
  | { kind: 'clone'; sourceId: string }
  | { kind: 'restore'; version: number }
  | { kind: 'other'; source: string }

const PLAIN_ORIGINS = ['create', 'update', 'ui', 'import', 'migration'] as const

export function versionOrigin(source: string): VersionOrigin {
  const plain = PLAIN_ORIGINS.find((kind) => kind === source)
  if (plain) return { kind: plain }
  if (source.startsWith('clone:') && source.length > 'clone:'.length) return { kind: 'clone', sourceId: source.slice('clone:'.length) }
  const restored = /^restore:([1-9][0-9]*)$/.exec(source)
  if (restored?.[1]) return { kind: 'restore', version: Number(restored[1]) }
  return { kind: 'other', source }
}

/** Fields compared as text, line by line: what the operator writes at length. */
export const TEXT_FIELDS = [
  'greetingMessage',
  'preamble',
  'outcome',
  'outcomeResponseShape',
  'pokeMessages',
  'params',
  'description',
] as const
export type TextField = (typeof TEXT_FIELDS)[number]
/** Fields compared as one value, old beside new. */
export const VALUE_FIELDS = [
  'agentName',
  'lang',
  'voice',
  'silenceThreshold',
  'endOfTurnSilenceMs',
  'maxCallerTurnSeconds',
  'interrupt',
  'realTime',
  'webhookUrl',
  'webhookAuthKey',
] as const
export type ValueField = (typeof VALUE_FIELDS)[number]
export type ComparedValue = string | number | boolean | null

/** A run of lines in a text's diff; `folded` stands for `count` unchanged lines left out. */
export type LineRun = { change: 'added' | 'removed' | 'same'; lines: string[] } | { change: 'folded'; count: number }

export type FieldChange =
  { field: TextField; kind: 'text'; runs: LineRun[] } | { field: ValueField; kind: 'value'; before: ComparedValue; after: ComparedValue }

/** Unchanged lines kept on each side of a change; longer unchanged stretches are folded. */
export const CONTEXT_LINES = 2

type ComparableAgent = Pick<
  VoiceAgent,
  | 'agentName'
  | 'description'
  | 'greetingMessage'
  | 'preamble'
  | 'lang'
  | 'pokeMessages'
  | 'realTime'
  | 'silenceThreshold'
  | 'interrupt'
  | 'endOfTurnSilenceMs'
  | 'maxCallerTurnSeconds'
  | 'outcome'
  | 'outcomeResponseShape'
  | 'voiceRecord'
  | 'webhookUrl'
  | 'webhookAuth'
  | 'params'
>

function textOf(agent: ComparableAgent, field: TextField): string {
  switch (field) {
    case 'outcomeResponseShape':
      // Sorted keys: a shape saved with its keys in another order is the same shape.
      return agent.outcomeResponseShape === null ? '' : outcomeShapeToText(JSON.parse(stableJson(agent.outcomeResponseShape)))
    case 'pokeMessages':
      return agent.pokeMessages.join('\n')
    case 'params':
      return Object.entries(agent.params)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, value]) => `${key} = ${value}`)
        .join('\n')
    default:
      return agent[field]
  }
}

function valueOf(agent: ComparableAgent, field: ValueField): ComparedValue {
  if (field === 'voice') return agent.voiceRecord.name
  if (field === 'webhookAuthKey') return agent.webhookAuth?.authKey ?? null
  return agent[field]
}

/** The lines of a text; a last line without its newline is still a line, and '' has none. */
function asLines(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`
}

/** Long unchanged stretches folded, keeping CONTEXT_LINES beside each change. */
function foldUnchanged(runs: LineRun[]): LineRun[] {
  // Nothing changed (texts that differ only by a last newline): shown whole, there is no change to stand beside.
  if (runs.every((run) => run.change === 'same')) return runs
  const folded: LineRun[] = []
  runs.forEach((run, index) => {
    if (run.change !== 'same') return void folded.push(run)
    const keepBefore = index > 0 ? CONTEXT_LINES : 0
    const keepAfter = index < runs.length - 1 ? CONTEXT_LINES : 0
    if (run.lines.length <= keepBefore + keepAfter + 1) return void folded.push(run)
    if (keepBefore > 0) folded.push({ change: 'same', lines: run.lines.slice(0, keepBefore) })
    folded.push({ change: 'folded', count: run.lines.length - keepBefore - keepAfter })
    if (keepAfter > 0) folded.push({ change: 'same', lines: run.lines.slice(run.lines.length - keepAfter) })
  })
  return folded
}

/** A line diff of two texts (jsdiff), from `before` to `after`. */
export function lineRuns(before: string, after: string): LineRun[] {
  const runs: LineRun[] = diffLines(asLines(before), asLines(after)).map((part) => ({
    change: part.added ? 'added' : part.removed ? 'removed' : 'same',
    lines: part.value.replace(/\n$/, '').split('\n'),
  }))
  return foldUnchanged(runs)
}

/** What changed from `before` (a version) to `after` (the agent now): the texts first, then the settings; empty when they are the same. */
export function agentChanges(before: ComparableAgent, after: ComparableAgent): FieldChange[] {
  const changes: FieldChange[] = []
  for (const field of TEXT_FIELDS) {
    const [old, now] = [textOf(before, field), textOf(after, field)]
    if (old !== now) changes.push({ field, kind: 'text', runs: lineRuns(old, now) })
  }
  for (const field of VALUE_FIELDS) {
    const [old, now] = [valueOf(before, field), valueOf(after, field)]
    if (old !== now) changes.push({ field, kind: 'value', before: old, after: now })
  }
  return changes
}
