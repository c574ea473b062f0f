import type { Scenario } from '../../../../shared/api/test-suites'
import { useT } from '../../i18n/use-t'
import { formatCount } from '../../lib/format'
import { useAppStore } from '../../store/app-context'
import { selectLocale } from '../../store/selectors'

/** How many things a scenario expects: each outcome field, the end reason, the turn limit, each webhook. */
export function expectationCount(scenario: Scenario): number {
  const { outcome, endReason, maxTurns, webhooks } = scenario.expect
  return Object.keys(outcome ?? {}).length + (endReason ? 1 : 0) + (maxTurns ? 1 : 0) + (webhooks?.length ?? 0)
}

/** The suite's scenarios, a row each: name, language, caller kind, expectations, and Edit and Delete. */
export function ScenarioList(props: { scenarios: Scenario[]; onEdit(index: number): void; onDelete(index: number): void }) {
  const t = useT()
  const locale = useAppStore(selectLocale)
  return (
    <div className="tests-table-wrap">
      <table className="table tests-scenarios" data-testid="tests-scenarios">
        <thead>
          <tr>
            <th scope="col">{t('tests.col.name')}</th>
            <th scope="col">{t('tests.col.language')}</th>
            <th scope="col">{t('tests.col.caller')}</th>
            <th scope="col">{t('tests.col.expects')}</th>
            <th scope="col">
              <span className="visually-hidden">{t('tests.col.actions')}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.scenarios.map((scenario, index) => (
            <tr key={index} data-scenario={scenario.name}>
              <td>
                {/* A paragraph of its own in its own direction: a name that wraps keeps its punctuation where it was written. */}
                <span className="scenario-name" dir="auto">
                  {scenario.name}
                </span>
              </td>
              <td>{scenario.language ? t(`tests.lang.${scenario.language}`) : t('tests.lang.agent')}</td>
              <td>{'say' in scenario.caller ? t('tests.caller.scripted') : t('tests.caller.adaptive')}</td>
              <td className="num">{formatCount(expectationCount(scenario), locale)}</td>
              <td className="actions">
                <span className="toolbar end">
                  <button
                    type="button"
                    className="button small"
                    aria-label={t('tests.editNamed', { name: scenario.name })}
                    onClick={() => props.onEdit(index)}
                  >
                    {t('tests.edit')}
                  </button>
                  <button
                    type="button"
                    className="button small danger"
                    aria-label={t('tests.deleteNamed', { name: scenario.name })}
                    onClick={() => props.onDelete(index)}
                  >
                    {t('common.delete')}
                  </button>
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
