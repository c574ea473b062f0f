import { PLACEHOLDER_NAME } from '../api/voice-agents'

/**
 * `{{name}}` placeholders in a greeting or preamble, filled from the agent's params when a
 * conversation starts. Spaces inside the braces are tolerated (`{{ name }}`); a name must
 * match PLACEHOLDER_NAME, anything else between braces is plain text.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g

/** A placeholder's param: a value with some text, a value that is empty or only spaces (flagged, not filled), or none. */
export type PlaceholderState = 'filled' | 'empty' | 'missing'

export type TemplateSegment =
  { kind: 'text'; text: string } | { kind: 'placeholder'; name: string; raw: string; value: string | undefined; state: PlaceholderState }

/** Whether params fill `name`: an empty or blank value does not count as filled. */
export function placeholderState(params: Readonly<Record<string, string>>, name: string): PlaceholderState {
  if (!Object.hasOwn(params, name)) return 'missing'
  return (params[name] ?? '').trim() === '' ? 'empty' : 'filled'
}

/** Splits a template into text and placeholders; each placeholder carries its value from params, if any. */
export function splitPlaceholders(template: string, params: Readonly<Record<string, string>> = {}): TemplateSegment[] {
  const segments: TemplateSegment[] = []
  let last = 0
  for (const match of template.matchAll(PLACEHOLDER)) {
    const index = match.index
    if (index > last) segments.push({ kind: 'text', text: template.slice(last, index) })
    // PLACEHOLDER's one group takes part in every match.
    const name = match[1] ?? ''
    segments.push({
      kind: 'placeholder',
      name,
      raw: match[0],
      value: Object.hasOwn(params, name) ? params[name] : undefined,
      state: placeholderState(params, name),
    })
    last = index + match[0].length
  }
  if (last < template.length) segments.push({ kind: 'text', text: template.slice(last) })
  return segments
}

/** The template as a conversation would start with it: known placeholders filled, unknown ones left as written. */
export function fillPlaceholders(template: string, params: Readonly<Record<string, string>>): string {
  return splitPlaceholders(template, params)
    .map((segment) => (segment.kind === 'text' ? segment.text : (segment.value ?? segment.raw)))
    .join('')
}

/** Distinct placeholder names, in order of first use. */
export function placeholderNames(...templates: string[]): string[] {
  const names = new Set<string>()
  for (const template of templates) {
    for (const segment of splitPlaceholders(template)) if (segment.kind === 'placeholder') names.add(segment.name)
  }
  return [...names]
}

/** Names used by the templates that params do not fill: no value, or an empty one. */
export function missingPlaceholders(params: Readonly<Record<string, string>>, ...templates: string[]): string[] {
  return placeholderNames(...templates).filter((name) => placeholderState(params, name) !== 'filled')
}

export function isPlaceholderName(name: string): boolean {
  return PLACEHOLDER_NAME.test(name)
}
