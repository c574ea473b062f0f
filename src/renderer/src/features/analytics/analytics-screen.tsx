import { useEffect, useState } from 'react'
import { ANALYTICS_PERIODS, type AnalyticsPeriod } from '../../../../shared/api/agent-analytics'
import type { VoiceAgent } from '../../../../shared/api/voice-agents'
import type { MessageKey } from '../../i18n/dictionary'
import { useT } from '../../i18n/use-t'
import { errorText } from '../../lib/readable-errors'
import { useAppStore, useCall, useStoreApi } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { downloadText } from '../../ui/copy-text'
import { FilterSelect } from '../../ui/field'
import { Icon } from '../../ui/icon'
import { LoadError } from '../../ui/load-error'
import { RangeFields } from '../../ui/range-fields'
import { analyticsCsv, type AnalyticsSummary } from './analytics-csv'
import { AnalyticsTiles, CallsOverTime, EndsAndDurations, OutcomeFields } from './analytics-panels'

/** Hours as the API wants them: getTimezoneOffset() / 60 (-3 in UTC+3). */
const TIME_DIFFERENCE = String(new Date().getTimezoneOffset() / 60)

/** A callback ref and the width of its element's content, followed as it changes (the charts fill their card). */
function useWidth<T extends HTMLElement>(): [(element: T | null) => void, number] {
  const [element, setElement] = useState<T | null>(null)
  const [width, setWidth] = useState(0)
  useEffect(() => {
    if (!element) return
    const observer = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)))
    observer.observe(element)
    return () => observer.disconnect()
  }, [element])
  return [setElement, width]
}

/** Local midnight of a `YYYY-MM-DD` day in ms; with `end`, the day's last millisecond. */
function dayMs(day: string, end: boolean): number {
  const [year, month, date] = day.split('-').map(Number)
  return new Date(year ?? 1970, (month ?? 1) - 1, (date ?? 1) + (end ? 1 : 0)).getTime() - (end ? 1 : 0)
}

/** A local day as `YYYY-MM-DD`, `daysBack` days before today. */
function localDay(daysBack: number): string {
  const day = new Date()
  day.setDate(day.getDate() - daysBack)
  const two = (value: number) => String(value).padStart(2, '0')
  return `${day.getFullYear()}-${two(day.getMonth() + 1)}-${two(day.getDate())}`
}

/**
 * The screen opens on the last 7 days, today included, as a custom range (the reference's periods
 * have no "last 7 days"): the service groups a range longer than two days by day, so the chart
 * shows a week's shape in seven bars, where the last hour would show one or two.
 */
function defaultFilters(): Filters {
  return { agentId: '', period: 'CUSTOM', from: localDay(6), to: localDay(0) }
}

interface Filters {
  agentId: string
  period: AnalyticsPeriod
  from: string
  to: string
}

/** The operation's input for the filters, or null while a custom range is not whole (or runs backwards). */
function inputOf(filters: Filters) {
  const custom = filters.period === 'CUSTOM'
  if (custom && (filters.from === '' || filters.to === '' || filters.to < filters.from)) return null
  return {
    ...(filters.agentId ? { voiceAgentId: filters.agentId } : {}),
    period: filters.period,
    timeDifference: TIME_DIFFERENCE,
    ...(custom ? { startPeriod: String(dayMs(filters.from, false)), endPeriod: String(dayMs(filters.to, true)) } : {}),
  }
}

function AnalyticsFilters({
  filters,
  agents,
  onChange,
}: {
  filters: Filters
  agents: VoiceAgent[]
  onChange(changes: Partial<Filters>): void
}) {
  const t = useT()
  const backwards = filters.from !== '' && filters.to !== '' && filters.to < filters.from
  return (
    <div className="filters" role="search" aria-label={t('analytics.filters')}>
      <FilterSelect label={t('analytics.agent')} value={filters.agentId} onChange={(agentId) => onChange({ agentId })}>
        <option value="">{t('analytics.allAgents')}</option>
        {agents.map((agent) => (
          <option key={agent.id} value={agent.id}>
            {agent.agentName}
          </option>
        ))}
      </FilterSelect>
      <FilterSelect
        label={t('analytics.period')}
        value={filters.period}
        onChange={(value) => onChange({ period: value as AnalyticsPeriod })}
      >
        {ANALYTICS_PERIODS.map((value) => (
          <option key={value} value={value}>
            {t(`analytics.period.${value}` as MessageKey)}
          </option>
        ))}
      </FilterSelect>
      {filters.period === 'CUSTOM' ? (
        <RangeFields
          type="date"
          labels={{ from: t('analytics.from'), to: t('analytics.to') }}
          from={filters.from}
          to={filters.to}
          onChange={(end, value) => onChange({ [end]: value })}
          backwards={backwards ? t('analytics.backwards') : undefined}
          errorId="analytics-range-error"
        />
      ) : null}
    </div>
  )
}

/** The agents' calls counted: filters by agent and period, figures, charts, CSV export. */
export function AnalyticsScreen() {
  const t = useT()
  const call = useCall()
  const store = useStoreApi()
  const locale = useAppStore(selectLocale)
  const [agents, setAgents] = useState<VoiceAgent[]>([])
  const [filters, setFilters] = useState<Filters>(defaultFilters)
  const [answer, setAnswer] = useState<{ key: string; summary?: AnalyticsSummary; error?: string } | null>(null)
  const [attempt, setAttempt] = useState(0)
  const [timeRef, timeWidth] = useWidth<HTMLDivElement>()
  const [sideRef, sideWidth] = useWidth<HTMLDivElement>()
  const input = inputOf(filters)
  const key = `${JSON.stringify(input)}#${attempt}`

  useEffect(() => {
    call('agents.list', { take: 100 })
      .then((page) => setAgents(page.agents))
      .catch(() => setAgents([]))
  }, [call])

  useEffect(() => {
    if (input === null) return
    let current = true
    call('analytics.summary', input)
      .then((summary) => current && setAnswer({ key, summary }))
      .catch((error: unknown) => current && setAnswer({ key, error: errorText(error, locale) }))
    return () => {
      current = false
    }
    // The key names the input and the attempt: a new one loads again.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- input is rebuilt on every render; key stands for it
  }, [call, key, locale])

  const summary = answer?.summary
  const loading = input !== null && answer?.key !== key
  const exportCsv = () => {
    if (!summary) return
    const name = `voicedesk-analytics-${new Date().toISOString().slice(0, 19).replace(/:/g, '-')}.csv`
    downloadText(name, analyticsCsv(summary), 'text/csv;charset=utf-8')
    store.getState().toast('success', t('analytics.saved', { name }))
  }

  return (
    <section className="analytics-screen" aria-labelledby="analytics-title" aria-busy={loading || undefined}>
      <header className="pane-header">
        <div>
          <h1 id="analytics-title">{t('analytics.title')}</h1>
          <p className="muted small">{t('analytics.intro')}</p>
        </div>
        <button type="button" className="button" disabled={!summary} title={t('analytics.exportLabel')} onClick={exportCsv}>
          <Icon name="download" size={16} />
          <span>
            {t('analytics.export')} <bdi>CSV</bdi>
          </span>
        </button>
      </header>
      <AnalyticsFilters filters={filters} agents={agents} onChange={(changes) => setFilters((now) => ({ ...now, ...changes }))} />
      {answer?.error ? (
        <LoadError error={answer.error} failed={t('analytics.loadFailed')} onRetry={() => setAttempt((n) => n + 1)} />
      ) : null}
      {!summary && !answer?.error ? <p className="muted">{t('analytics.loading')}</p> : null}
      {summary ? (
        <>
          <AnalyticsTiles summary={summary} locale={locale} />
          {summary.calls.calls === 0 ? <p className="empty">{t('analytics.none')}</p> : null}
          <div className="analytics-grid">
            <div className="card analytics-card" ref={timeRef}>
              <CallsOverTime summary={summary} width={timeWidth} rtl={locale === 'ar'} />
            </div>
            <div className="card analytics-card" ref={sideRef}>
              <EndsAndDurations summary={summary} locale={locale} width={sideWidth} />
            </div>
            <div className="card analytics-card" data-testid="analytics-fields">
              <OutcomeFields summary={summary} locale={locale} width={sideWidth} />
            </div>
          </div>
        </>
      ) : null}
    </section>
  )
}
