import { useEffect } from 'react'
import { translate } from '../i18n/dictionary'
import { useAppStore } from '../store/app-context'
import { selectLocale, selectTheme } from '../store/selectors'

/** <html lang dir> follow the UI language (Arabic mirrors the layout); data-theme follows the choice. */
export function useDocumentLocale(): void {
  const locale = useAppStore(selectLocale)
  const theme = useAppStore(selectTheme)
  useEffect(() => {
    const root = document.documentElement
    root.lang = locale
    root.dir = locale === 'ar' ? 'rtl' : 'ltr'
    document.title = translate(locale, 'app.name')
  }, [locale])
  useEffect(() => {
    const root = document.documentElement
    if (theme === 'system') delete root.dataset.theme
    else root.dataset.theme = theme
  }, [theme])
}
