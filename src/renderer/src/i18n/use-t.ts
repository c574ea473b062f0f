import { useCallback } from 'react'
import { useAppStore } from '../store/app-context'
import { selectLocale } from '../store/selectors'
import { translate, type MessageKey, type MessageVars } from './dictionary'

export type Translate = (key: MessageKey, vars?: MessageVars) => string

/** The dictionary in the operator's language. */
export function useT(): Translate {
  const locale = useAppStore(selectLocale)
  return useCallback((key: MessageKey, vars?: MessageVars) => translate(locale, key, vars), [locale])
}
