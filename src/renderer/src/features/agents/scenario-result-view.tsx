import type { ScenarioResult } from '../../../../shared/api/test-suites'
import { useT } from '../../i18n/use-t'
import { formatCount } from '../../lib/format'
import { hashOf } from '../../store/hash-route'
import { useAppStore } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'
import { FieldDiffTable } from './field-diff-table'
import { RunStatusBadge } from './run-status-badge'

/** One scenario of a run: its verdict, why it failed, its call in numbers, and a link to the call's transcript. */
export function ScenarioResultView({ result, showRound }: { result: ScenarioResult; showRound: boolean }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  const ms = (value: number | null) => (value === null ? '—' : t('tests.ms', { n: formatCount(Math.round(value), locale) }))
  const done = result.status === 'PASSED' || result.status === 'FAILED'
  return (
    <li className="card scenario-result" data-testid="scenario-result" data-scenario={result.name} data-status={result.status}>
      <header className="tests-header">
        <h4>
          <bdi dir="auto">{result.name}</bdi>
          {showRound ? <span className="muted small"> {t('tests.round', { n: result.round })}</span> : null}
        </h4>
        <RunStatusBadge status={result.status} />
      </header>
      {result.error ? (
        <p className="error-box small" dir="auto" data-testid="scenario-error">
          {result.error}
        </p>
      ) : null}
      {done ? (
        <dl className="tests-facts">
          <div>
            <dt>{t('tests.turns')}</dt>
            <dd className="num">{formatCount(result.turns, locale)}</dd>
          </div>
          <div>
            <dt>{t('tests.endReason')}</dt>
            <dd>{result.endReason ? <code dir="ltr">{result.endReason}</code> : '—'}</dd>
          </div>
          <div>
            <dt>{t('tests.firstAudio')}</dt>
            <dd className="num">{ms(result.firstAudioMs)}</dd>
          </div>
          <div>
            <dt>{t('tests.voiceToVoice')}</dt>
            <dd className="num">{ms(result.voiceToVoiceMs)}</dd>
          </div>
        </dl>
      ) : null}
      {result.fields.length > 0 ? <FieldDiffTable fields={result.fields} /> : null}
      {result.conversationId ? (
        <a className="link" href={hashOf({ screen: 'jobs', id: result.conversationId })} data-testid="scenario-transcript">
          {t('tests.transcript')}
        </a>
      ) : null}
    </li>
  )
}
