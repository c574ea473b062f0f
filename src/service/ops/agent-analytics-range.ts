import type { AnalyticsPeriod } from '../../shared/api/agent-analytics'

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS

/** A range of creation times [from, to) in ms, how its calls are grouped, and the local time's offset from UTC. */
export interface AnalyticsRange {
  from: number
  to: number
  bucket: 'hour' | 'day'
  /** Local time is UTC plus this many minutes. */
  offsetMinutes: number
}

/**
 * The range a period names, in the caller's local time: `timeDifference` is in hours as
 * JavaScript's getTimezoneOffset() / 60 gives it (-3 for UTC+3). Calendar periods run from
 * their local start to their local end (weeks start on Monday); LAST_HOUR ends now; CUSTOM
 * runs from startPeriod to endPeriod, both included. Ranges of two days or less are grouped
 * by hour, longer ones by day.
 */
export function analyticsRange(
  now: Date,
  query: { period: AnalyticsPeriod; startPeriod?: string; endPeriod?: string; timeDifference: string },
): AnalyticsRange {
  const offsetMinutes = Math.round(-Number(query.timeDifference) * 60)
  const offsetMs = offsetMinutes * 60_000
  const nowMs = now.getTime()
  const local = new Date(nowMs + offsetMs)
  const startOfDay = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - offsetMs
  let from: number
  let to: number
  switch (query.period) {
    case 'LAST_HOUR':
      ;[from, to] = [nowMs - HOUR_MS, nowMs + 1]
      break
    case 'TODAY':
      ;[from, to] = [startOfDay, startOfDay + DAY_MS]
      break
    case 'YESTERDAY':
      ;[from, to] = [startOfDay - DAY_MS, startOfDay]
      break
    case 'THIS_WEEK': {
      const monday = startOfDay - ((local.getUTCDay() + 6) % 7) * DAY_MS
      ;[from, to] = [monday, monday + 7 * DAY_MS]
      break
    }
    case 'THIS_MONTH':
      from = Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - offsetMs
      to = Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) - offsetMs
      break
    case 'CUSTOM':
      // The schema requires both for CUSTOM.
      ;[from, to] = [Number(query.startPeriod ?? 0), Number(query.endPeriod ?? 0) + 1]
      break
  }
  return { from, to, bucket: to - from <= 2 * DAY_MS ? 'hour' : 'day', offsetMinutes }
}

/** Every bucket's local label from the range's start to its end, 'YYYY-MM-DD HH:00:00' (days: 00:00:00). */
export function bucketLabels(range: AnalyticsRange): string[] {
  const step = range.bucket === 'hour' ? HOUR_MS : DAY_MS
  const offsetMs = range.offsetMinutes * 60_000
  const first = Math.floor((range.from + offsetMs) / step) * step
  const labels: string[] = []
  for (let at = first; at < range.to + offsetMs; at += step) labels.push(localLabel(at, range.bucket))
  return labels
}

/** The label of the hour or day that holds a local time (ms of local time read as UTC). */
export function localLabel(localMs: number, bucket: 'hour' | 'day'): string {
  const iso = new Date(localMs).toISOString()
  return `${iso.slice(0, 10)} ${bucket === 'hour' ? iso.slice(11, 13) : '00'}:00:00`
}
