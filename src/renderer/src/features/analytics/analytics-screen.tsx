import { useCallback, useEffect, useRef, useState } from 'react'
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '../../../../shared/api/agent-analytics'
import type { VoiceAgent } from '../../../../shared/api/voice-agents'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { formatCount } from '../../lib/format'
import { errorText } from '../../lib/readable-errors'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { downloadText } from '../../ui/copy-text'
import { FilterSelect } from '../../ui/field'
import { Icon } from '../../ui/icon'
import { LoadError } from '../../ui/load-error'
import { RangeFields } from '../../ui/range-fields'
import { ShareBars, SERIES_COLOURS, TimeBars } from './analytics-charts'
import { analyticsCsv, type AnalyticsSummary } from './analytics-csv'

/** Hours as the API wants them: getTimezoneOffset() / 60 (-3 in UTC+3). */
const TIME_DIFFERENCE = String(new Date().getTimezoneOffset() / 60)

/** The width of an element, followed as it changes (the charts fill their card). */
function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null)
  const [width, setWidth] = useState(0)
  useEffect(() => {
    const element = ref.current
    if (!element) return
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)))
    observer.observe(element)
    return () => observer.disconnect()
  }, [])
  return [ref, width]
}

/** Local midnight of a `YYYY-MM-DD` day, in ms; the end of the day for `end`. */
function dayMs(day: string, end: boolean): number {
  const [year, month, date] = day.split('-').map(Number)
  return new Date(year ?? 1970, (month ?? 1) - 1, (date ?? 1) + (end ? 1 : 0)).getTime() - (end ? 1 : 0)
}

/** The agents' calls counted: filters by agent and period, figures, charts, CSV export. */
export function AnalyticsScreen() {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const rtl = locale === 'ar'
  const [agents, setAgents] = useState<VoiceAgent[]>([])
  const [agentId, setAgentId] = useState('')
  const [period, setPeriod] = useState<AnalyticsPeriod>('THIS_WEEK')
  const [range, setRange] = useState({ from: '', to: '' })
  const [summary, setSummary] = useState<AnalyticsSummary | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [loading, setLoading] = useState(false)
  const [timeRef, timeWidth] = useWidth<HTMLDivElement>()
  const [sideRef, sideWidth] = useWidth<HTMLDivElement>()
  const backwards = range.from !== '' && range.to !== '' && range.to < range.from
  const customReady = period !== 'CUSTOM' || (range.from !== '' && range.to !== '' && !backwards)

  useEffect(() => {
    call('agents.list', { take: 100 })
      .then((page) => setAgents(page.agents))
      .catch(() => setAgents([]))
  }, [call])

  const load = useCallback(async () => {
    if (!customReady) return
    setLoading(true)
    try {
      const custom = period === 'CUSTOM' ? { startPeriod: String(dayMs(range.from, false)), endPeriod: String(dayMs(range.to, true)) } : {}
      const answer = await call('analytics.summary', {
        ...(agentId ? { voiceAgentId: agentId } : {}),
        period,
        timeDifference: TIME_DIFFERENCE,
        ...custom,
      })
      setSummary(answer)
      setError(null)
    } catch (caught) {
      setError(errorText(caught, locale))
    } finally {
      setLoading(false)
    }
  }, [agentId, call, customReady, locale, period, range.from, range.to])

  useEffect(() => {
    void load()
  }, [load])

  const exportCsv = () => {
    if (!summary) return
    const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '-')
    const name = `voicedesk-analytics-${stamp}.csv`
    downloadText(name, analyticsCsv(summary), 'text/csv;charset=utf-8')
    store.getState().toast('success', t('analytics.saved', { name }))
  }

  const count = (value: number) => formatCount(value, locale)
  const figure = (value: number | null, key: MessageKey) =>
    value === null ? t('analytics.notAvailable') : t(key, { n: formatCount(Math.round(value * 100) / 100, locale) })
  const calls = summary?.calls
  const tiles: { label: MessageKey; value: string; testId: string }[] =
    summary && calls
      ? [
          { label: 'analytics.calls', value: count(calls.calls), testId: 'tile-calls' },
          { label: 'analytics.live', value: count(summary.overview.liveSessionsNumber), testId: 'tile-live' },
          { label: 'analytics.avgDuration', value: figure(calls.duration.average, 'analytics.seconds'), testId: 'tile-duration' },
          {
            label: 'analytics.interruptions',
            value: figure(calls.interruptions.perCall, 'analytics.percent').replace(/\s?[%٪]$/, ''),
            testId: 'tile-interruptions',
          },
          {
            label: 'analytics.pokes',
            value: calls.pokes.perCall === null ? t('analytics.notAvailable') : count(calls.pokes.perCall),
            testId: 'tile-pokes',
          },
          {
            label: 'analytics.toolCalls',
            value: calls.toolCalls.perCall === null ? t('analytics.notAvailable') : count(calls.toolCalls.perCall),
            testId: 'tile-tools',
          },
          { label: 'analytics.latency', value: figure(calls.latency.averageMs, 'analytics.ms'), testId: 'tile-latency' },
          { label: 'analytics.csat', value: figure(summary.satisfaction.csatScore, 'analytics.percent'), testId: 'tile-csat' },
          {
            label: 'analytics.resolution',
            value: figure(summary.satisfaction.firstCallResolutionPercentage, 'analytics.percent'),
            testId: 'tile-resolution',
          },
        ]
      : []
  const hourly = calls?.bucket === 'hour'
  const tickLabel = (label: string) => (hourly ? label.slice(11, 16) : label.slice(5, 10))
  const endReasons = calls
    ? Object.entries(calls.byEndReason)
        .filter(([, value]) => value > 0)
        .map(([reason, value]) => ({
          label: reason === 'none' ? t('analytics.end.none') : t(`calls.end.${reason}` as MessageKey),
          value,
        }))
    : []
  const durations = summary
    ? [
        { label: t('analytics.short'), value: summary.overview.callsByDurationBuckets.shortDurationBucketCalls },
        { label: t('analytics.medium'), value: summary.overview.callsByDurationBuckets.mediumDurationBucketCalls },
        { label: t('analytics.long'), value: summary.overview.callsByDurationBuckets.longDurationBucketCalls },
      ]
    : []
  const chartWidth = Math.max(0, sideWidth)

  return (
    <section className="analytics-screen" aria-labelledby="analytics-title" aria-busy={loading || undefined}>
      <header className="pane-header">
        <div>
          <h1 id="analytics-title">{t('analytics.title')}</h1>
          <p className="muted small">{t('analytics.intro')}</p>
        </div>
        <button
          type="button"
          className="button"
          disabled={!summary}
          aria-label={t('analytics.exportLabel')}
          title={t('analytics.exportLabel')}
          onClick={exportCsv}
        >
          <Icon name="download" size={16} />
          <span>{t('analytics.export')}</span>
        </button>
      </header>
      <div className="filters" role="search" aria-label={t('analytics.filters')}>
        <FilterSelect label={t('analytics.agent')} value={agentId} onChange={setAgentId}>
          <option value="">{t('analytics.allAgents')}</option>
          {agents.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.agentName}
            </option>
          ))}
        </FilterSelect>
        <FilterSelect label={t('analytics.period')} value={period} onChange={(value) => setPeriod(value as AnalyticsPeriod)}>
          {ANALYTICS_PERIODS.map((value) => (
            <option key={value} value={value}>
              {t(`analytics.period.${value}` as MessageKey)}
            </option>
          ))}
        </FilterSelect>
        {period === 'CUSTOM' ? (
          <RangeFields
            type="date"
            labels={{ from: t('analytics.from'), to: t('analytics.to') }}
            from={range.from}
            to={range.to}
            onChange={(end, value) => setRange((current) => ({ ...current, [end]: value }))}
            backwards={backwards ? t('analytics.backwards') : undefined}
            errorId="analytics-range-error"
          />
        ) : null}
      </div>
      {error ? <LoadError error={error} failed={t('analytics.loadFailed')} onRetry={() => void load()} /> : null}
      {!summary && !error ? <p className="muted">{t('analytics.loading')}</p> : null}
      {summary && calls ? (
        <>
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
          {calls.calls === 0 ? <p className="empty">{t('analytics.none')}</p> : null}
          <div className="analytics-grid">
            <div className="card analytics-card" ref={timeRef}>
              <h2>{t('analytics.overTime')}</h2>
              <p className="muted small">
                {t('analytics.overTimeHint', { bucket: t(hourly ? 'analytics.bucket.hour' : 'analytics.bucket.day') })}
              </p>
              <ul className="analytics-legend">
                {(['completed', 'failed', 'other'] as const).map((series) => (
                  <li key={series}>
                    <span className="swatch" style={{ background: SERIES_COLOURS[series] }} aria-hidden="true" />
                    {t(`analytics.${series}`)}
                  </li>
                ))}
              </ul>
              {timeWidth > 0 ? (
                <TimeBars
                  width={timeWidth - 32}
                  height={200}
                  rtl={rtl}
                  title={t('analytics.overTime')}
                  tickLabel={tickLabel}
                  data={calls.byTime.map((bucket) => ({
                    label: bucket.timeBucket,
                    completed: bucket.completed,
                    failed: bucket.failed,
                    other: bucket.calls - bucket.completed - bucket.failed,
                  }))}
                />
              ) : null}
            </div>
            <div className="card analytics-card" ref={sideRef}>
              <h2>{t('analytics.endReasons')}</h2>
              {chartWidth > 0 ? (
                <ShareBars
                  data={endReasons}
                  width={chartWidth - 32}
                  max={Math.max(1, ...endReasons.map((row) => row.value))}
                  rtl={rtl}
                  title={t('analytics.endReasons')}
                  format={count}
                />
              ) : null}
              <h2>{t('analytics.durations')}</h2>
              {chartWidth > 0 ? (
                <ShareBars
                  data={durations}
                  width={chartWidth - 32}
                  max={Math.max(1, ...durations.map((row) => row.value))}
                  rtl={rtl}
                  title={t('analytics.durations')}
                  format={count}
                  colour="var(--warn)"
                />
              ) : null}
            </div>
            <div className="card analytics-card" data-testid="analytics-fields">
              <h2>{t('analytics.fields')}</h2>
              {calls.outcome.fields ? (
                <>
                  <p className="muted small">{t('analytics.fieldsHint')}</p>
                  {chartWidth > 0 ? (
                    <ShareBars
                      data={calls.outcome.fields.map((field) => ({ label: field.field, value: field.rate ?? 0 }))}
                      width={chartWidth - 32}
                      max={1}
                      rtl={rtl}
                      title={t('analytics.fields')}
                      format={(value) => t('analytics.percent', { n: formatCount(Math.round(value * 100), locale) })}
                      colour="var(--ok)"
                    />
                  ) : null}
                </>
              ) : (
                <p className="muted small">{t('analytics.fieldsPick')}</p>
              )}
              <p className="muted small">{t('analytics.noSentiment')}</p>
            </div>
          </div>
        </>
      ) : null}
    </section>
  )
}
