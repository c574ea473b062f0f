import type { StateCounts } from '../../../../shared/api/state'
import { translate, type UiLocale } from '../../i18n/dictionary'
import { pluralKey, type PluralForms } from '../../i18n/plural'
import { formatCount } from '../../lib/format'

const AGENTS: PluralForms = {
  one: 'snapshots.agentsOne',
  two: 'snapshots.agentsTwo',
  few: 'snapshots.agentsFew',
  many: 'snapshots.agentsMany',
  other: 'snapshots.agentsOther',
}
const NUMBERS: PluralForms = {
  one: 'snapshots.numbersOne',
  two: 'snapshots.numbersTwo',
  few: 'snapshots.numbersFew',
  many: 'snapshots.numbersMany',
  other: 'snapshots.numbersOther',
}
const JOBS: PluralForms = {
  one: 'snapshots.jobsOne',
  two: 'snapshots.jobsTwo',
  few: 'snapshots.jobsFew',
  many: 'snapshots.jobsMany',
  other: 'snapshots.jobsOther',
}

/** "1 agent, 2 numbers, 0 jobs" in the UI's language, each noun in its plural form. */
export function snapshotCountsText(locale: UiLocale, counts: Pick<StateCounts, 'agents' | 'phoneNumbers' | 'jobs'>): string {
  const counted = (count: number, forms: PluralForms) =>
    translate(locale, pluralKey(locale, count, forms), { n: formatCount(count, locale) })
  return translate(locale, 'snapshots.counts', {
    agents: counted(counts.agents, AGENTS),
    numbers: counted(counts.phoneNumbers, NUMBERS),
    jobs: counted(counts.jobs, JOBS),
  })
}
