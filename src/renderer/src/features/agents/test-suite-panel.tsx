import { useRef, useState } from 'react'
import type { Scenario } from '../../../../shared/api/test-suites'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import { useT } from '../../i18n/use-t'
import { downloadText } from '../../ui/copy-text'
import { FieldErrors } from '../../ui/field'
import { LoadError } from '../../ui/load-error'
import { ConfirmDialog } from '../../ui/modal-dialog'
import { NEW_SCENARIO, ScenarioEditor } from './scenario-editor'
import { ScenarioList } from './scenario-list'
import type { useTestSuite } from './use-test-suite'

type Editing = { index: number } | { index: null } | null

/** The Tests tab's suite: its scenarios, edited one at a time, and Save, Generate, Import and Export. */
export function TestSuitePanel({ agent, suite }: { agent: OperatorAgent; suite: ReturnType<typeof useTestSuite> }) {
  const t = useT()
  const [editing, setEditing] = useState<Editing>(null)
  const fileRef = useRef<HTMLInputElement>(null)
  /** Generate or an imported file, waiting for the operator's yes: it would replace unsaved changes. */
  const [replacing, setReplacing] = useState<{ run(): void } | null>(null)
  const scenarios = suite.draft?.scenarios ?? []

  if (suite.error) return <LoadError error={suite.error} failed={t('tests.suiteFailed')} onRetry={() => void suite.reload()} />

  const apply = (scenario: Scenario) => {
    if (editing?.index === null) suite.setScenarios([...scenarios, scenario])
    else if (editing) suite.setScenarios(scenarios.map((item, index) => (index === editing.index ? scenario : item)))
    setEditing(null)
  }
  const replaceDraft = (run: () => void) => (suite.unsaved && suite.draft !== null ? setReplacing({ run }) : run())
  const importFile = async (file: File | undefined) => {
    if (fileRef.current) fileRef.current.value = ''
    if (!file) return
    const text = await file.text()
    replaceDraft(() => suite.importText(text))
  }
  const generateButton = (
    <button type="button" className="button" disabled={suite.busy !== null} onClick={() => replaceDraft(() => void suite.generate())}>
      {suite.busy === 'generating' ? t('common.loading') : t('tests.generate')}
    </button>
  )

  return (
    <section className="tests-suite stack" aria-labelledby="tests-suite-title" data-testid="tests-suite">
      <header className="tests-header">
        <h3 id="tests-suite-title">{t('tests.suiteTitle')}</h3>
        {suite.unsaved && suite.draft !== null ? (
          <span className="badge badge-pending" data-testid="tests-unsaved">
            {t('tests.unsaved')}
          </span>
        ) : null}
      </header>
      {suite.loading ? <p className="muted">{t('common.loading')}</p> : null}
      {!suite.loading && suite.draft === null && editing === null ? (
        <div className="empty-state tests-empty" data-testid="tests-empty">
          <p>{t('tests.empty', { name: `\u2068${agent.agentName}\u2069` })}</p>
          <div className="toolbar">
            {generateButton}
            <button type="button" className="button" onClick={() => setEditing({ index: null })}>
              {t('tests.addScenario')}
            </button>
          </div>
        </div>
      ) : null}
      {scenarios.length > 0 ? (
        <ScenarioList
          scenarios={scenarios}
          onEdit={(index) => setEditing({ index })}
          onDelete={(index) => suite.setScenarios(scenarios.filter((_, at) => at !== index))}
        />
      ) : null}
      {suite.draft !== null && scenarios.length === 0 && editing === null ? <p className="muted small">{t('tests.noScenarios')}</p> : null}
      {editing ? (
        <ScenarioEditor
          key={editing.index ?? 'new'}
          scenario={editing.index === null ? NEW_SCENARIO : (scenarios[editing.index] ?? NEW_SCENARIO)}
          isNew={editing.index === null}
          onApply={apply}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      <FieldErrors errors={suite.problems} />
      <div className="toolbar">
        {suite.draft !== null ? (
          <button
            type="button"
            className="button primary"
            data-testid="tests-save"
            disabled={!suite.unsaved || suite.draft === null || scenarios.length === 0 || suite.busy !== null}
            onClick={() => void suite.save()}
          >
            {suite.busy === 'saving' ? t('common.saving') : t('tests.save')}
          </button>
        ) : null}
        {suite.unsaved && suite.saved !== null ? (
          <button type="button" className="button" onClick={suite.revert}>
            {t('tests.revert')}
          </button>
        ) : null}
        {editing === null && suite.draft !== null ? (
          <button type="button" className="button" onClick={() => setEditing({ index: null })}>
            {t('tests.addScenario')}
          </button>
        ) : null}
        {suite.draft !== null ? generateButton : null}
        <button type="button" className="button" onClick={() => fileRef.current?.click()}>
          {t('tests.import')}
        </button>
        <input
          ref={fileRef}
          type="file"
          accept="application/json,.json"
          hidden
          data-testid="tests-import-file"
          onChange={(event) => void importFile(event.target.files?.[0])}
        />
        <button
          type="button"
          className="button"
          disabled={suite.draft === null}
          onClick={() => downloadText(`${agent.agentName}-tests.json`, `${JSON.stringify(suite.draft, null, 2)}\n`, 'application/json')}
        >
          {t('tests.export')}
        </button>
      </div>
      <ConfirmDialog
        open={replacing !== null}
        title={t('tests.replaceTitle')}
        explanation={t('tests.replaceExplain')}
        confirmLabel={t('tests.replaceConfirm')}
        onConfirm={() => replacing?.run()}
        onCancel={() => setReplacing(null)}
      />
    </section>
  )
}
