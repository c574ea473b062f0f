import { useEffect, useId, useMemo, useState } from 'react'
import { ScenarioSchema, type Scenario } from '../../../../shared/api/test-suites'
import { useT } from '../../i18n/use-t'
import { CodeTextarea } from '../../ui/code-textarea'
import { SubmitForm } from '../../ui/submit-form'
import { zodIssues } from './zod-issues'

/** A new scenario's starting point: a scripted caller and one expectation to fill in. */
export const NEW_SCENARIO: Scenario = { name: 'New scenario', caller: { say: ['Hello'] }, expect: { endReason: 'completed' } }

type Checked = { ok: true; scenario: Scenario } | { ok: false; issues: string[] }

function check(text: string, notJson: (reason: string) => string): Checked {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    return { ok: false, issues: [notJson(error instanceof Error ? error.message : String(error))] }
  }
  const result = ScenarioSchema.safeParse(parsed)
  return result.success ? { ok: true, scenario: result.data } : { ok: false, issues: zodIssues(result.error) }
}

/** One scenario as JSON, checked as the service will check it while it is typed; Apply only when it is valid. */
export function ScenarioEditor(props: { scenario: Scenario; isNew: boolean; onApply(scenario: Scenario): void; onCancel(): void }) {
  const t = useT()
  const id = useId()
  const [text, setText] = useState(() => JSON.stringify(props.scenario, null, 2))
  // Opened below the list, maybe out of view: the JSON takes the focus (and so comes into view).
  useEffect(() => document.getElementById(`${id}-json`)?.focus(), [id])
  const checked = useMemo(() => check(text, (reason) => t('tests.notJson', { reason })), [text, t])

  return (
    <SubmitForm
      className="card scenario-editor"
      data-testid="scenario-editor"
      aria-labelledby={`${id}-title`}
      noValidate
      onSubmit={() => {
        if (checked.ok) props.onApply(checked.scenario)
      }}
    >
      <h4 id={`${id}-title`}>{props.isNew ? t('tests.newScenario') : t('tests.editScenario')}</h4>
      <div className="field">
        <label htmlFor={`${id}-json`}>{t('tests.scenarioJson')}</label>
        <CodeTextarea
          id={`${id}-json`}
          rows={10}
          value={text}
          invalid={!checked.ok}
          describedBy={`${id}-hint${checked.ok ? '' : ` ${id}-issues`}`}
          onChange={setText}
        />
        <div id={`${id}-hint`} className="field-hint">
          {t('tests.scenarioHint')}
        </div>
        {checked.ok ? null : (
          // The schema's own words (English, as the service answers them): data, left to right.
          <ul id={`${id}-issues`} className="field-error scenario-issues" data-testid="scenario-issues" dir="ltr" lang="en">
            {checked.issues.map((issue) => (
              <li key={issue}>{issue}</li>
            ))}
          </ul>
        )}
      </div>
      <div className="toolbar">
        <button type="submit" className="button primary" disabled={!checked.ok}>
          {t('tests.apply')}
        </button>
        <button type="button" className="button" onClick={props.onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </SubmitForm>
  )
}
