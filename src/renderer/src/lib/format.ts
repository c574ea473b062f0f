import type { UiLocale } from '../i18n/dictionary'

const numberLocale = (locale: UiLocale) => (locale === 'ar' ? 'ar-u-nu-latn' : 'en')

export function formatCost(cost: number, locale: UiLocale): string {
  return new Intl.NumberFormat(numberLocale(locale), { minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(cost)
}

export function formatCount(count: number, locale: UiLocale): string {
  return new Intl.NumberFormat(numberLocale(locale)).format(count)
}

export function formatDateTime(iso: string | null | undefined, locale: UiLocale): string {
  if (!iso) return '—'
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return new Intl.DateTimeFormat(numberLocale(locale), { dateStyle: 'medium', timeStyle: 'medium' }).format(date)
}
