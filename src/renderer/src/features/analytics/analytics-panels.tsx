import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import type { UiLocale } from '../../i18n/dictionary'
import { formatCount } from '../../lib/format'
import { ShareBars, SERIES_COLOURS, TimeBars } from './analytics-charts'
import type { AnalyticsSummary } from './analytics-csv'

interface PanelProps {
  summary: AnalyticsSummary
  locale: UiLocale
}

/** The figures as tiles: calls, live, duration, interruptions, pokes, tool calls, latency, satisfaction, completeness. */
export function AnalyticsTiles({ summary, locale }: PanelProps) {
  const t = useT()
  const { calls, overview, satisfaction } = summary
  const number = (value: number | null, key?: MessageKey) => {
    if (value === null) return t('analytics.notAvailable')
    const shown = formatCount(Math.round(value * 100) / 100, locale)
    return key ? t(key, { n: shown }) : shown
  }
  const tiles: { label: MessageKey; value: string; testId: string }[] = [
    { label: 'analytics.calls', value: number(calls.calls), testId: 'tile-calls' },
    { label: 'analytics.live', value: number(overview.liveSessionsNumber), testId: 'tile-live' },
    { label: 'analytics.avgDuration', value: number(calls.duration.average, 'analytics.seconds'), testId: 'tile-duration' },
    { label: 'analytics.interruptions', value: number(calls.interruptions.perCall), testId: 'tile-interruptions' },
    { label: 'analytics.pokes', value: number(calls.pokes.perCall), testId: 'tile-pokes' },
    { label: 'analytics.toolCalls', value: number(calls.toolCalls.perCall), testId: 'tile-tools' },
    { label: 'analytics.latency', value: number(calls.latency.averageMs, 'analytics.ms'), testId: 'tile-latency' },
    { label: 'analytics.csat', value: number(satisfaction.csatScore, 'analytics.percent'), testId: 'tile-csat' },
    {
      label: 'analytics.resolution',
      value: number(satisfaction.firstCallResolutionPercentage, 'analytics.percent'),
      testId: 'tile-resolution',
    },
  ]
  return (
    <ul className="analytics-tiles" data-testid="analytics-tiles">
      {tiles.map((tile) => (
        <li key={tile.label} className="card analytics-tile" data-testid={tile.testId}>
          <span className="muted small">{t(tile.label)}</span>
          <strong>
            <bdi>{tile.value}</bdi>
          </strong>
        </li>
      ))}
    </ul>
  )
}

/** Calls over time, stacked by how they ended, with its legend. */
export function CallsOverTime({ summary, width, rtl }: { summary: AnalyticsSummary; width: number; rtl: boolean }) {
  const t = useT()
  const { calls } = summary
  const hourly = calls.bucket === 'hour'
  return (
    <>
      <h2>{t('analytics.overTime')}</h2>
      <p className="muted small">{t('analytics.overTimeHint', { bucket: t(hourly ? 'analytics.bucket.hour' : 'analytics.bucket.day') })}</p>
      <ul className="analytics-legend">
        {(['completed', 'failed', 'other'] as const).map((series) => (
          <li key={series}>
            <span className="swatch" style={{ background: SERIES_COLOURS[series] }} aria-hidden="true" />
            {t(`analytics.${series}`)}
          </li>
        ))}
      </ul>
      {width > 0 ? (
        <TimeBars
          width={width}
          height={200}
          rtl={rtl}
          title={t('analytics.overTime')}
          tickLabel={(label) => (hourly ? label.slice(11, 16) : label.slice(5, 10))}
          data={calls.byTime.map((bucket) => ({
            label: bucket.timeBucket,
            completed: bucket.completed,
            failed: bucket.failed,
            other: bucket.calls - bucket.completed - bucket.failed,
          }))}
        />
      ) : null}
    </>
  )
}

/** Why calls ended and how long they were, as bars. */
export function EndsAndDurations({ summary, locale, width }: PanelProps & { width: number }) {
  const t = useT()
  const rtl = locale === 'ar'
  const count = (value: number) => formatCount(value, locale)
  const endReasons = Object.entries(summary.calls.byEndReason)
    .filter(([, value]) => value > 0)
    .map(([reason, value]) => ({
      label: reason === 'none' ? t('analytics.end.none') : t(`calls.end.${reason}` as MessageKey),
      value,
    }))
  const buckets = summary.overview.callsByDurationBuckets
  const durations = [
    { label: t('analytics.short'), value: buckets.shortDurationBucketCalls },
    { label: t('analytics.medium'), value: buckets.mediumDurationBucketCalls },
    { label: t('analytics.long'), value: buckets.longDurationBucketCalls },
  ]
  if (width <= 0) return null
  return (
    <>
      <h2>{t('analytics.endReasons')}</h2>
      <ShareBars
        data={endReasons}
        width={width}
        max={Math.max(1, ...endReasons.map((row) => row.value))}
        rtl={rtl}
        title={t('analytics.endReasons')}
        format={count}
      />
      <h2>{t('analytics.durations')}</h2>
      <ShareBars
        data={durations}
        width={width}
        max={Math.max(1, ...durations.map((row) => row.value))}
        rtl={rtl}
        title={t('analytics.durations')}
        format={count}
        colour="var(--warn)"
      />
    </>
  )
}

/** How often each outcome field was filled (one agent with a shape), and why there is no sentiment. */
export function OutcomeFields({ summary, locale, width }: PanelProps & { width: number }) {
  const t = useT()
  const fields = summary.calls.outcome.fields
  return (
    <>
      <h2>{t('analytics.fields')}</h2>
      {fields ? (
        <>
          <p className="muted small">{t('analytics.fieldsHint')}</p>
          {width > 0 ? (
            <ShareBars
              data={fields.map((field) => ({ label: field.field, value: field.rate ?? 0 }))}
              width={width}
              max={1}
              rtl={locale === 'ar'}
              title={t('analytics.fields')}
              format={(value) => t('analytics.percent', { n: formatCount(Math.round(value * 100), locale) })}
              colour="var(--ok)"
              dataLabels
            />
          ) : null}
        </>
      ) : (
        <p className="muted small">{t('analytics.fieldsPick')}</p>
      )}
      <p className="muted small">{t('analytics.noSentiment')}</p>
    </>
  )
}
