import type { MessageKey, UiLocale } from './dictionary'

/**
 * The message for each plural category a count may take ("1 agent", "2 agents"; Arabic has
 * a dual and forms for 3 to 10 and from 11). A category not given says `other`.
 */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, MessageKey>> & { other: MessageKey }

const rulesByLocale = new Map<UiLocale, Intl.PluralRules>()

function rulesOf(locale: UiLocale): Intl.PluralRules {
  let rules = rulesByLocale.get(locale)
  if (!rules) rulesByLocale.set(locale, (rules = new Intl.PluralRules(locale)))
  return rules
}

/** The key of `forms` that `count` takes in `locale`; fill its `{n}` with the count. */
export function pluralKey(locale: UiLocale, count: number, forms: PluralForms): MessageKey {
  return forms[rulesOf(locale).select(count)] ?? forms.other
}
