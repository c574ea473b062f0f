const ENGLISH_PLURALS = new Intl.PluralRules('en')

/** A count with its noun in the English of the CLI and the logs: "1 agent", "2 agents", "0 jobs". */
export function counted(count: number, one: string, other: string): string {
  return `${count} ${ENGLISH_PLURALS.select(count) === 'one' ? one : other}`
}
