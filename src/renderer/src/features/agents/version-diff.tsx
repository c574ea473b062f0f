import type { MessageKey } from '../../i18n/dictionary'
import type { Translate } from '../../i18n/use-t'
import { useT } from '../../i18n/use-t'
import type { ComparedValue, FieldChange, LineRun, TextField, ValueField } from '../../lib/agent-version-diff'

/** The editor's own label of each compared field, so the History tab names fields as Settings does. */
const FIELD_LABELS: Record<TextField | ValueField, MessageKey> = {
  greetingMessage: 'agent.greeting',
  preamble: 'agent.preamble',
  outcome: 'agent.outcome',
  outcomeResponseShape: 'agent.shape',
  pokeMessages: 'agent.pokes',
  params: 'agent.params',
  description: 'history.description',
  agentName: 'agent.name',
  lang: 'agent.lang',
  voice: 'agent.voice',
  silenceThreshold: 'agent.silence',
  endOfTurnSilenceMs: 'agent.endOfTurnSilence',
  maxCallerTurnSeconds: 'agent.maxCallerTurn',
  interrupt: 'agent.interrupt',
  realTime: 'agent.realTime',
  webhookUrl: 'agent.webhookUrl',
  webhookAuthKey: 'agent.authKey',
}

function shownValue(value: ComparedValue, t: Translate): string {
  if (value === null) return t('history.noneValue')
  if (typeof value === 'boolean') return value ? t('history.on') : t('history.off')
  if (value === '') return t('history.emptyValue')
  return String(value)
}

/** What the newer side is called: the agent now, or a version of it (`afterVersion`). */
function addedLabel(t: Translate, afterVersion: number | undefined): string {
  return afterVersion === undefined ? t('history.added') : t('history.removed', { n: afterVersion })
}

/** Lines as the operator wrote them: data, in their own direction (dir="auto"). */
function Runs({ runs, version, afterVersion }: { runs: LineRun[]; version: number; afterVersion?: number }) {
  const t = useT()
  return (
    <div className="diff-lines">
      {runs.map((run, index) => {
        if (run.change === 'folded')
          return (
            <div key={index} className="diff-folded">
              {t('history.folded', { n: run.count })}
            </div>
          )
        const Tag = run.change === 'removed' ? 'del' : run.change === 'added' ? 'ins' : 'div'
        return (
          <Tag key={index} className={`diff-run diff-${run.change}`}>
            {run.change === 'same' ? null : (
              <span className="visually-hidden">
                {run.change === 'removed' ? t('history.removed', { n: version }) : addedLabel(t, afterVersion)}
              </span>
            )}
            {run.lines.map((line, lineIndex) => (
              <span key={lineIndex} className="diff-line" dir="auto">
                {line === '' ? '\u00a0' : line}
              </span>
            ))}
          </Tag>
        )
      })}
    </div>
  )
}

/**
 * Each changed field of a version against the agent now (or against version `afterVersion`):
 * texts line by line, settings old beside new.
 */
export function VersionDiff({ changes, version, afterVersion }: { changes: FieldChange[]; version: number; afterVersion?: number }) {
  const t = useT()
  return (
    <dl className="version-diff" data-testid="version-diff">
      {changes.map((change) => (
        <div key={change.field} className="diff-field" data-field={change.field}>
          <dt>{t(FIELD_LABELS[change.field])}</dt>
          <dd>
            {change.kind === 'text' ? (
              <Runs runs={change.runs} version={version} afterVersion={afterVersion} />
            ) : (
              <div className="diff-values">
                <del className="diff-run diff-removed">
                  <span className="diff-label">{t('history.removed', { n: version })}</span>{' '}
                  <bdi dir="auto">{shownValue(change.before, t)}</bdi>
                </del>
                <ins className="diff-run diff-added">
                  <span className="diff-label">{addedLabel(t, afterVersion)}</span> <bdi dir="auto">{shownValue(change.after, t)}</bdi>
                </ins>
              </div>
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}
