import { useEffect } from 'react'
import type { OperatorAgent } from '../../../../shared/ipc/operations'
import { TestRunHistory } from './test-run-history'
import { TestRunPanel } from './test-run-panel'
import { TestSuitePanel } from './test-suite-panel'
import { useTestsApi } from './use-tests-api'
import { useTestHistory } from './use-test-history'
import { useTestRun } from './use-test-run'
import { useTestSuite } from './use-test-suite'

/** An agent's Tests tab: its suite, a run with live progress and results, and past runs. */
export function AgentTests({ agent }: { agent: OperatorAgent }) {
  const api = useTestsApi()
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
