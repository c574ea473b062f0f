import type { MessageKey } from '../i18n/dictionary'
import { useT } from '../i18n/use-t'
import { byteSize, formatCount } from '../lib/format'
import { useAppStore } from '../store/app-context'
import { selectLocale } from '../store/selectors'

/** A size in bytes as the operator reads it: bytes, KiB or MiB, the number and the unit in the UI's language. */
export function useSizeText(): (bytes: number) => string {
  const t = useT()
  const locale = useAppStore(selectLocale)
  return (bytes) => {
    const { unit, n } = byteSize(bytes)
    return t(`unit.${unit}` as MessageKey, { n: formatCount(n, locale) })
  }
}
