import { progressPercent } from '../lib/transcript-view'

/**
 * How much of a running job is done: a bar with its percent (role=progressbar, so assistive
 * technology reads the number). `compact` for a table row: thinner, the percent beside it.
 */
export function ProgressBar({ fraction, label, compact = false }: { fraction: number; label: string; compact?: boolean }) {
  const percent = progressPercent(fraction)
  return (
    <span className={`progress ${compact ? 'compact' : ''}`}>
      <span
        className="progress-track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%`}
      >
        <span className="progress-fill" style={{ inlineSize: `${percent}%` }} />
      </span>
      <span className="progress-percent num" aria-hidden="true">
        {percent}%
      </span>
    </span>
  )
}
