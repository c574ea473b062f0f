import type { TestRun } from '../../../../shared/api/test-suites'
import { useT } from '../../i18n/use-t'
import { formatCount, formatDateTime } from '../../lib/format'
import { useAppStore } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { LoadError } from '../../ui/load-error'
import { RunStatusBadge } from './run-status-badge'
import { SinceLastGreen } from './since-last-green'
import type { useTestHistory } from './use-test-history'

/** Past runs, newest first: agent version, status, passed and failed, when; a run opens in Run above. */
export function TestRunHistory(props: {
  agentId: string
  history: ReturnType<typeof useTestHistory>
  shownRunId: string | null
  onShow(run: TestRun): void
}) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const { runs, loading, error, reload } = props.history
  const finished = runs.filter((run) => run.status !== 'RUNNING')
  const latest = finished[0]
  const green = finished.find((run) => run.status === 'PASSED')

  return (
    <section className="tests-history stack" aria-labelledby="tests-history-title" data-testid="tests-history">
      <h3 id="tests-history-title">{t('tests.historyTitle')}</h3>
      {error ? <LoadError error={error} failed={t('tests.historyFailed')} onRetry={() => void reload()} /> : null}
      {!error && runs.length === 0 ? <p className="muted small">{loading ? t('common.loading') : t('tests.noRuns')}</p> : null}
      {latest?.status === 'FAILED' && green ? <SinceLastGreen agentId={props.agentId} latest={latest} green={green} /> : null}
      {latest?.status === 'FAILED' && !green && runs.length > 0 ? <p className="muted small">{t('tests.neverGreen')}</p> : null}
      {runs.length > 0 ? (
        <div className="tests-table-wrap">
          <table className="table tests-runs" data-testid="tests-runs">
            <thead>
              <tr>
                <th scope="col">{t('tests.col.when')}</th>
                <th scope="col">{t('tests.col.version')}</th>
                <th scope="col">{t('tests.col.status')}</th>
                <th scope="col">{t('tests.col.passed')}</th>
                <th scope="col">{t('tests.col.failed')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('tests.col.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {runs.map((run) => (
                <tr key={run.id} data-run={run.id} className={run.id === props.shownRunId ? 'selected' : undefined}>
                  <td>
                    <time dateTime={run.createdAt}>{formatDateTime(run.createdAt, locale)}</time>
                  </td>
                  <td className="num">{run.agentVersion === null ? '—' : formatCount(run.agentVersion, locale)}</td>
                  <td>
                    <RunStatusBadge status={run.status} />
                  </td>
                  <td className="num">{formatCount(run.summary.passed, locale)}</td>
                  <td className="num">{formatCount(run.summary.failed, locale)}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="button small"
                      aria-pressed={run.id === props.shownRunId}
                      aria-label={t('tests.showRunAt', { when: formatDateTime(run.createdAt, locale) })}
                      onClick={() => props.onShow(run)}
                    >
                      {t('tests.showRun')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </section>
  )
}
