import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { DialogueAgent, DialogueEvent, DialogueSession } from '../../../src/engines/dialogue/dialogue-engine'
import type { OutcomeShape } from '../../../src/shared/api/outcome-shape'

interface Template {
  agentName: string
  lang: 'ar' | 'en'
  greetingMessage: string
  preamble: string
  outcome: string
  outcomeResponseShape: OutcomeShape
  params: Record<string, string>
}

const fill = (text: string, params: Record<string, string>) => text.replace(/\{\{(\w+)\}\}/g, (_m, key: string) => params[key] ?? '')

/** A template from resources/templates as a call sees it: placeholders filled with the template's own params. */
export function templateAgent(file: string, smartCallEnd = true): DialogueAgent {
  const template = JSON.parse(readFileSync(join(import.meta.dirname, '../../../resources/templates', file), 'utf8')) as Template
  return {
    agentName: template.params.agentName ?? template.agentName,
    lang: template.lang,
    greeting: fill(template.greetingMessage, template.params),
    preamble: fill(template.preamble, template.params),
    outcome: template.outcome,
    outcomeShape: template.outcomeResponseShape,
    smartCallEnd,
  }
}

export async function collect(events: AsyncIterable<DialogueEvent>): Promise<DialogueEvent[]> {
  const all: DialogueEvent[] = []
  for await (const event of events) all.push(event)
  return all
}

/** What the agent said in one answer, joined. */
export const said = (events: DialogueEvent[]) =>
  events
    .filter((event) => event.type === 'say')
    .map((event) => event.text)
    .join(' ')

/** Runs a script of caller turns and returns every answer. */
export async function converse(session: DialogueSession, turns: string[]): Promise<DialogueEvent[][]> {
  const answers = [await collect(session.open())]
  for (const turn of turns) answers.push(await collect(session.respond(turn)))
  return answers
}
