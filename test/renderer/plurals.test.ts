// Counts are said with their noun in the right form: "1 agent", never "1 agents"; in Arabic the
// dual and the forms for 3 to 10 and from 11 differ. DOM-free: the messages the components show.
import { describe, expect, it } from 'vitest'
import { translate } from '../../src/renderer/src/i18n/dictionary'
import { pluralKey } from '../../src/renderer/src/i18n/plural'
import { snapshotCountsText } from '../../src/renderer/src/features/settings/snapshot-counts'

const counts = (agents: number, phoneNumbers: number, jobs: number) => ({ agents, phoneNumbers, jobs, deliveries: 0, attempts: 0 })

describe('plurals in the UI', () => {
  it('snapshot counts, in English', () => {
    expect(snapshotCountsText('en', counts(1, 1, 1))).toBe('1 agent, 1 number, 1 job')
    expect(snapshotCountsText('en', counts(0, 2, 1_000))).toBe('0 agents, 2 numbers, 1,000 jobs')
  })

  it('snapshot counts, in Arabic: one, two, a few, many', () => {
    expect(snapshotCountsText('ar', counts(1, 2, 3))).toBe('وكيل واحد، رقمان، 3 مهام')
    expect(snapshotCountsText('ar', counts(11, 100, 0))).toMatch(/^11 وكيلًا، 100 رقم، 0 مهمة$/)
  })

  it.each([
    { forms: { one: 'requests.droppedOne', other: 'requests.dropped' }, one: '1 request was not journaled: the disk fell behind.' },
    { forms: { one: 'transcript.linesLabelOne', other: 'transcript.linesLabel' }, one: '1 timed line' },
    { forms: { one: 'jobs.makeAiButtonOne', other: 'jobs.makeAiButton' }, one: 'Make 1 part' },
  ] as const)('$one, and the other form for 2', ({ forms, one }) => {
    expect(translate('en', pluralKey('en', 1, forms), { n: '1' })).toBe(one)
    expect(translate('en', pluralKey('en', 2, forms), { n: '2' })).not.toBe(one.replace('1', '2'))
  })
})
