import type { UiLocale } from '../i18n/dictionary'

const numberLocale = (locale: UiLocale) => (locale === 'ar' ? 'ar-u-nu-latn' : 'en')

/**
 * One formatter per locale, made once: building an Intl formatter costs far more than using one,
 * and the jobs table formats a cost and a date in every row it renders (new formatters per row
 * were two thirds of the page's time while scrolling with the queue draining, bench/ui-scroll.ts).
 */
function perLocale<F>(make: (locale: string) => F): (locale: UiLocale) => F {
  const made = new Map<UiLocale, F>()
  return (locale) => {
    let formatter = made.get(locale)
    if (!formatter) made.set(locale, (formatter = make(numberLocale(locale))))
    return formatter
  }
}

const costFormat = perLocale((locale) => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 4 }))
const countFormat = perLocale((locale) => new Intl.NumberFormat(locale))
const dateTimeFormat = perLocale((locale) => new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }))

export function formatCost(cost: number, locale: UiLocale): string {
  return costFormat(locale).format(cost)
}

export function formatCount(count: number, locale: UiLocale): string {
  return countFormat(locale).format(count)
}

export function formatDateTime(iso: string | null | undefined, locale: UiLocale): string {
  if (!iso) return '—'
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return dateTimeFormat(locale).format(date)
}

/** A span of seconds as a clock, m:ss (h:mm:ss from an hour on): call durations and positions. */
export function formatClock(seconds: number): string {
  const whole = Math.max(0, Math.floor(seconds))
  const hours = Math.floor(whole / 3600)
  const minutes = Math.floor((whole % 3600) / 60)
  const rest = String(whole % 60).padStart(2, '0')
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`
}

const timeOfDayFormat = perLocale(
  (locale) =>
    new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', second: '2-digit', fractionalSecondDigits: 3, hour12: false }),
)

/** The time of day with milliseconds (14:05:09.123): requests a few ms apart stay apart. */
export function formatTimeOfDay(iso: string, locale: UiLocale): string {
  const date = new Date(iso)
  return Number.isNaN(date.getTime()) ? iso : timeOfDayFormat(locale).format(date)
}

/** A size in bytes as a number and its unit (bytes, KiB, MiB), for a translation such as `unit.kib`. */
export function byteSize(bytes: number): { unit: 'bytes' | 'kib' | 'mib'; n: number } {
  if (bytes < 1024) return { unit: 'bytes', n: bytes }
  if (bytes < 1024 * 1024) return { unit: 'kib', n: Math.round((bytes / 1024) * 10) / 10 }
  return { unit: 'mib', n: Math.round((bytes / (1024 * 1024)) * 10) / 10 }
}
