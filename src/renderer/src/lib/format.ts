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

/** A span of seconds as a clock, m:ss (h:mm:ss from an hour on): call durations and positions. */
export function formatClock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds))
  const hours = Math.floor(whole / 3600)
  const minutes = Math.floor((whole % 3600) / 60)
  const rest = String(whole % 60).padStart(2, '0')
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`
}
