import { useEffect } from 'react'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import type { TestsApi } from '../../api/tests-api'
import { useT } from '../../i18n/use-t'
import { useAppStore } from '../../store/app-context'
import { selectServiceInfo } from '../../store/selectors'
import { TestRunHistory } from './test-run-history'
import { TestRunPanel } from './test-run-panel'
import { TestSuitePanel } from './test-suite-panel'
import { useTestsApi } from './tests-key'
import { TestsKeyForm } from './tests-key-form'
import { useTestHistory } from './use-test-history'
import { useTestRun } from './use-test-run'
import { useTestSuite } from './use-test-suite'

/** An agent's Tests tab: its suite, a run with live progress and results, and past runs. Asks for a key first. */
export function AgentTests({ agent }: { agent: OperatorAgent }) {
  const t = useT()
  const api = useTestsApi()
  const host = useAppStore(selectServiceInfo)?.host
  // The desktop window's page is another origin than the service, and /_voicedesk answers no CORS:
  // said plainly until the tests have operator operations of their own.
  if (host === 'desktop')
    return (
      <p className="card muted" data-testid="tests-desktop">
        {t('tests.desktopNotYet')}
      </p>
    )
  return api === null ? <TestsKeyForm /> : <AgentTestsWith api={api} agent={agent} />
}

function AgentTestsWith({ api, agent }: { api: TestsApi; agent: OperatorAgent }) {
  const suite = useTestSuite(api, agent.id)
  const history = useTestHistory(api, agent.id)
  const { reload } = history
  const run = useTestRun(api, agent.id, () => void reload())
  // A run just started shows in the history at once (RUNNING), and again once it ends.
  useEffect(() => {
    if (run.runId !== null) void reload()
  }, [run.runId, reload])
  return (
    <div className="tests" data-testid="agent-tests">
      <TestSuitePanel agent={agent} suite={suite} />
      <TestRunPanel run={run} canRun={suite.saved !== null} unsaved={suite.unsaved} />
      <TestRunHistory agentId={agent.id} history={history} shownRunId={run.runId} onShow={(shown) => run.show(shown.id)} />
    </div>
  )
}
