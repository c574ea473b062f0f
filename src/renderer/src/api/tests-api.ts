import type { TestRun, TestSuite } from '../../../shared/api/test-suites'
import type { Call } from './call'

/** The stored suite of an agent, as tests.getSuite and tests.putSuite answer it. */
export interface StoredSuite {
  agentId: string
  suite: TestSuite
  updatedAt: string
}

/**
 * An agent's test suite and runs (docs/api.md, "Test suites and runs"), through the operator
 * bridge's `tests.*` operations like every other screen: no API key is asked of the operator
 * (a run's calls connect with a ticket the service issues itself). Refusals throw the
 * OperatorError of `call`, with the code and field details.
 */
export interface TestsApi {
  /** The stored suite; null when the agent has none yet. */
  getSuite(agentId: string): Promise<StoredSuite | null>
  putSuite(agentId: string, suite: TestSuite): Promise<StoredSuite>
  /** A starter suite made from the agent's outcome shape and language (not stored). */
  starterSuite(agentId: string): Promise<TestSuite>
  startRun(agentId: string, body: { suite?: TestSuite; concurrency?: number; repeat?: number }): Promise<{ id: string; status: string }>
  getRun(id: string): Promise<TestRun>
  listRuns(agentId: string, take: number): Promise<TestRun[]>
}

export function createTestsApi(call: Call): TestsApi {
  return {
    getSuite: (agentId) => call('tests.getSuite', { agentId }),
    putSuite: (agentId, suite) => call('tests.putSuite', { agentId, suite }),
    starterSuite: (agentId) => call('tests.starterSuite', { agentId }),
    startRun: (agentId, body) => call('tests.startRun', { agentId, ...body }),
    getRun: (id) => call('tests.getRun', { id }),
    listRuns: async (agentId, take) => (await call('tests.listRuns', { agentId, take })).runs,
  }
}
