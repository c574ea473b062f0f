/**
 * The operator's messages in English and Arabic and the one way to read them. The tables live
 * one language a file: en.ts (the reference, whose keys type the rest) and ar.ts.
 */
import { ar } from './ar'
import { en, type MessageKey, type Messages } from './en'

export type { MessageKey } from './en'
export type UiLocale = 'en' | 'ar'
export type MessageVars = Record<string, string | number>

const DICTIONARIES: Record<UiLocale, Messages> = { en, ar }

/** The message in the locale, its `{name}` marks filled from vars (unknown marks are left as written). */
export function translate(locale: UiLocale, key: MessageKey, vars?: MessageVars): string {
  const template = DICTIONARIES[locale][key] ?? en[key]
  if (!vars) return template
  return template.replace(/\{(\w+)\}/g, (mark, name: string) => (Object.hasOwn(vars, name) ? String(vars[name]) : mark))
}
