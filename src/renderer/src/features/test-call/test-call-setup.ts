import type { TestCallInputSchema } from '../../../../shared/ipc/streams'
import { placeholderNames } from '../../../../shared/text/placeholders'
import type { z } from 'zod'

type TestCallTool = z.input<typeof TestCallInputSchema>['tools'] extends (infer T)[] | undefined ? T : never

/**
 * What the operator sets before a test call: values for the placeholders, and the tools the
 * panel offers the agent with the stub answer for each. Tools and stubs are kept per agent in
 * localStorage (they are test fixtures, not part of the agent); params start from the agent's own.
 */

/** A tool as the operator edits it: every part as text, checked before the call. */
export interface ToolDraft {
  name: string
  description: string
  /** JSON Schema of the arguments, as JSON text (empty: none). */
  parametersText: string
  /** The answer the panel gives when the agent calls this tool, as JSON text. */
  stubText: string
}

export const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/
const STORAGE_PREFIX = 'voicedesk.testCall.tools.'

/** The slice of localStorage the setup uses (a Map-backed object in tests). */
export interface SetupStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
}

export const storageKeyOf = (agentId: string) => `${STORAGE_PREFIX}${agentId}`

const isToolDraft = (value: unknown): value is ToolDraft =>
  typeof value === 'object' &&
  value !== null &&
  ['name', 'description', 'parametersText', 'stubText'].every((key) => typeof (value as Record<string, unknown>)[key] === 'string')

/** The agent's saved tools; none when nothing was kept or what was kept is unreadable. */
export function loadToolDrafts(storage: SetupStorage, agentId: string): ToolDraft[] {
  try {
    const stored: unknown = JSON.parse(storage.getItem(storageKeyOf(agentId)) ?? '[]')
    return Array.isArray(stored) ? stored.filter(isToolDraft) : []
  } catch {
    return []
  }
}

export function saveToolDrafts(storage: SetupStorage, agentId: string, tools: readonly ToolDraft[]): void {
  try {
    storage.setItem(storageKeyOf(agentId), JSON.stringify(tools))
  } catch {
    // A full or refused storage loses the fixtures of the next visit, not the call.
  }
}

export const EXAMPLE_TOOL: ToolDraft = {
  name: 'check_availability',
  description: '',
  parametersText: JSON.stringify({ type: 'object', properties: { date: { type: 'string' } }, required: ['date'] }, null, 2),
  stubText: JSON.stringify({ available: true }, null, 2),
}

export type ToolProblem = 'badName' | 'duplicateName' | 'parametersNotJson' | 'parametersNotObject' | 'stubNotJson'

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

/** What stops a tool from being offered (the stub is checked too: it is what the agent will get). */
export function toolProblems(tool: ToolDraft, all: readonly ToolDraft[]): ToolProblem[] {
  const problems: ToolProblem[] = []
  if (!TOOL_NAME.test(tool.name)) problems.push('badName')
  else if (all.filter((other) => other.name === tool.name).length > 1) problems.push('duplicateName')
  if (tool.parametersText.trim() !== '') {
    const parameters = parseJson(tool.parametersText)
    if (!parameters.ok) problems.push('parametersNotJson')
    else if (typeof parameters.value !== 'object' || parameters.value === null || Array.isArray(parameters.value))
      problems.push('parametersNotObject')
  }
  if (!parseJson(tool.stubText).ok) problems.push('stubNotJson')
  return problems
}

/** The tools as the call's input carries them (only call with drafts that have no problems). */
export function toolsForCall(drafts: readonly ToolDraft[]): TestCallTool[] {
  return drafts.map((draft) => {
    const parameters = draft.parametersText.trim() === '' ? undefined : (JSON.parse(draft.parametersText) as Record<string, unknown>)
    return {
      name: draft.name,
      ...(draft.description.trim() !== '' ? { description: draft.description.trim() } : {}),
      ...(parameters ? { parameters } : {}),
    }
  })
}

/** The answer to a tool call: the tool's stub as it is now (text that is not JSON goes as a string). */
export function stubAnswerFor(drafts: readonly ToolDraft[], name: string): unknown {
  const draft = drafts.find((candidate) => candidate.name === name)
  if (!draft) return { error: `No stub is set for ${name}` }
  const parsed = parseJson(draft.stubText)
  return parsed.ok ? parsed.value : draft.stubText
}

/** The call's params as the form starts: every placeholder the agent uses, and every param it has, with the agent's values. */
export function initialParams(agent: {
  greetingMessage: string
  preamble: string
  params: Readonly<Record<string, string>>
}): Record<string, string> {
  const names = [...placeholderNames(agent.greetingMessage, agent.preamble), ...Object.keys(agent.params)]
  return Object.fromEntries([...new Set(names)].map((name) => [name, agent.params[name] ?? '']))
}
