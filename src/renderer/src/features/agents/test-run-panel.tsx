import { useState } from 'react'
import { MAX_RUN_CONCURRENCY } from '../../../../shared/api/test-suites'
import { useT } from '../../i18n/use-t'
import { formatCount } from '../../lib/format'
import { useAppStore } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { TextField } from '../../ui/field'
import { ProgressBar } from '../../ui/progress-bar'
import { SubmitForm } from '../../ui/submit-form'
import { RunStatusBadge } from './run-status-badge'
import { ScenarioResultView } from './scenario-result-view'
import type { useTestRun } from './use-test-run'

const MAX_REPEAT = 50

/** A whole number from `min` to `max`, or null. */
function wholeIn(text: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(text.trim())) return null
  const value = Number(text)
  return value >= min && value <= max ? value : null
}

/** Run: how many calls at once and how many rounds, the Run button, then the run's progress and results. */
export function TestRunPanel(props: { run: ReturnType<typeof useTestRun>; canRun: boolean; unsaved: boolean }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const { run: current } = props
  const [concurrency, setConcurrency] = useState('4')
  const [repeat, setRepeat] = useState('1')
  const [tried, setTried] = useState(false)
  const concurrencyValue = wholeIn(concurrency, 1, MAX_RUN_CONCURRENCY)
  const repeatValue = wholeIn(repeat, 1, MAX_REPEAT)
  const run = current.run
  const summary = run?.summary

  return (
    <section className="tests-run stack" aria-labelledby="tests-run-title" data-testid="tests-run">
      <h3 id="tests-run-title">{t('tests.runTitle')}</h3>
      <SubmitForm
        className="tests-run-form"
        noValidate
        onSubmit={() => {
          setTried(true)
          if (concurrencyValue !== null && repeatValue !== null) void current.start(concurrencyValue, repeatValue)
        }}
      >
        <TextField
          label={t('tests.concurrency')}
          inputMode="numeric"
          dir="ltr"
          inputClassName="narrow"
          value={concurrency}
          errors={tried && concurrencyValue === null ? [t('tests.between', { min: 1, max: MAX_RUN_CONCURRENCY })] : []}
          onChange={setConcurrency}
        />
        <TextField
          label={t('tests.repeat')}
          inputMode="numeric"
          dir="ltr"
          inputClassName="narrow"
          value={repeat}
          errors={tried && repeatValue === null ? [t('tests.between', { min: 1, max: MAX_REPEAT })] : []}
          onChange={setRepeat}
        />
        <button type="submit" className="button primary" data-testid="tests-run-button" disabled={!props.canRun || current.running}>
          {current.running ? t('tests.running') : t('tests.run')}
        </button>
      </SubmitForm>
      {!props.canRun ? <p className="muted small">{t('tests.saveFirst')}</p> : null}
      {props.canRun && props.unsaved ? <p className="warning-note small">{t('tests.runsSaved')}</p> : null}
      {current.error ? (
        <p className="error-box small" role="alert" dir="auto" data-testid="tests-run-error">
          {current.error}
        </p>
      ) : null}
      {run && summary ? (
        <div className="stack" data-testid="tests-run-result" data-status={run.status}>
          <div className="tests-header" aria-live="polite">
            <RunStatusBadge status={run.status} />
            <span data-testid="tests-progress">
              {t('tests.progress', { n: formatCount(summary.finished, locale), m: formatCount(summary.scenarios, locale) })}
            </span>
            {run.status !== 'RUNNING' ? (
              <span className="muted small">
                {t('tests.tally', { passed: formatCount(summary.passed, locale), failed: formatCount(summary.failed, locale) })}
              </span>
            ) : null}
            {run.agentVersion !== null ? <span className="muted small">{t('history.version', { n: run.agentVersion })}</span> : null}
          </div>
          {run.status === 'RUNNING' ? (
            <ProgressBar fraction={summary.scenarios === 0 ? 0 : summary.finished / summary.scenarios} label={t('tests.runTitle')} />
          ) : null}
          {run.error ? (
            <p className="error-box small" dir="auto">
              {run.error}
            </p>
          ) : null}
          <ol className="scenario-results">
            {run.results.map((result, index) => (
              <ScenarioResultView key={index} result={result} showRound={run.repeat > 1} />
            ))}
          </ol>
        </div>
      ) : null}
    </section>
  )
}
