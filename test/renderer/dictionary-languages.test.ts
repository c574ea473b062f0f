// The two languages of the operator UI hold the same messages: the same keys (the type system
// already refuses a missing one; this also catches a table widened with a cast), in the same
// order (the files are read and merged side by side), and the same `{placeholders}` in each
// message, so a value filled in English is filled in Arabic too. DOM-free: the tables themselves.
import { describe, expect, it } from 'vitest'
import { ar } from '../../src/renderer/src/i18n/ar'
import { en } from '../../src/renderer/src/i18n/en'
import { translate, type MessageKey } from '../../src/renderer/src/i18n/dictionary'

const placeholdersOf = (message: string): string[] =>
  [...new Set(Array.from(message.matchAll(/\{(\w+)\}/g), (match) => match[1] ?? ''))].sort()

/** The count an Arabic message for one or two (`…One`, `…Two`) may leave out: the noun's form says it ("وكيلان", two agents). */
const COUNT_SAID_BY_THE_NOUN = new Set(['n', 'filtered'])
const isOneOrTwoForm = (key: string) => /(One|Two)$/.test(key)

describe('the dictionary, language by language', () => {
  it('Arabic has exactly the English keys, in the English order', () => {
    expect(Object.keys(en).length).toBeGreaterThan(800)
    expect(Object.keys(ar)).toEqual(Object.keys(en))
  })

  it('each message says the same placeholders in both languages', () => {
    const differing = (Object.keys(en) as MessageKey[])
      .map((key) => {
        const arabic = placeholdersOf(ar[key])
        const english = placeholdersOf(en[key]).filter(
          (name) => !(isOneOrTwoForm(key) && COUNT_SAID_BY_THE_NOUN.has(name) && !arabic.includes(name)),
        )
        return { key, en: english, ar: arabic }
      })
      .filter(({ en: english, ar: arabic }) => english.join() !== arabic.join())
    expect(differing).toEqual([])
  })

  it('no message is empty', () => {
    for (const table of [en, ar]) expect(Object.entries(table).filter(([, message]) => message.trim() === '')).toEqual([])
  })

  it('translate reads each language from its own table', () => {
    expect(translate('en', 'nav.agents')).toBe(en['nav.agents'])
    expect(translate('ar', 'nav.agents')).toBe(ar['nav.agents'])
    expect(translate('ar', 'nav.agents')).not.toBe(translate('en', 'nav.agents'))
    // The first and the last key of the continued tables reach translate as well.
    expect(translate('ar', 'calls.title')).toBe('المكالمة')
    expect(translate('en', 'unit.mib', { n: 3 })).toBe('3 MiB')
  })
})
