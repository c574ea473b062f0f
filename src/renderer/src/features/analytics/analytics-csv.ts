import type { CallAnalytics, OverviewAnalytics, SatisfactionAnalytics } from '../../../../shared/api/agent-analytics'
import { toCsv } from '../../../../shared/csv'

export interface AnalyticsSummary {
  overview: OverviewAnalytics
  calls: CallAnalytics
  satisfaction: SatisfactionAnalytics
}

/**
 * The figures the screen shows, as CSV: one line per time bucket (calls, completed, failed,
 * seconds), then the end reasons, the outcome fields and the satisfaction figures, each a
 * `section,name,value` line, so a spreadsheet reads both parts.
 */
export function analyticsCsv(summary: AnalyticsSummary): string {
  const { calls, satisfaction } = summary
  const rows: (string | number | null)[][] = [['section', 'name', 'calls', 'completed', 'failed', 'seconds']]
  for (const bucket of calls.byTime) rows.push(['time', bucket.timeBucket, bucket.calls, bucket.completed, bucket.failed, bucket.seconds])
  for (const [reason, count] of Object.entries(calls.byEndReason)) rows.push(['endReason', reason, count])
  for (const field of calls.outcome.fields ?? []) rows.push(['outcomeField', field.field, field.filled, null, null, null])
  rows.push(['interruptions', 'total', calls.interruptions.total])
  rows.push(['pokes', 'total', calls.pokes.total])
  rows.push(['toolCalls', 'total', calls.toolCalls.total])
  rows.push(['latency', 'averageMs', calls.latency.averageMs])
  rows.push(['satisfaction', 'csatScore', satisfaction.csatScore])
  rows.push(['satisfaction', 'firstCallResolutionPercentage', satisfaction.firstCallResolutionPercentage])
  return toCsv(rows)
}
