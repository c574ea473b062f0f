import { describe, expect, it } from 'vitest'
import type { TestRun } from '../../src/shared/api/test-suites'
import { IPC_OPERATION_NAMES, type VoiceDeskBridge } from '../../src/shared/ipc/operations'
import { createCall } from '../../src/renderer/src/api/call'
import { OperatorError } from '../../src/renderer/src/api/operator-error'
import { createTestsApi, type TestsApi } from '../../src/renderer/src/api/tests-api'
import { brokenSince } from '../../src/renderer/src/lib/broken-since'
import { templateAgent } from '../helpers/test-runs'
import type { TestService } from '../helpers/test-service'
import { startBrowserMode } from '../service/ipc-client'

/*
 * The Tests tab's client: the renderer's `call` over browser mode's /ipc carrier (the operator
 * bridge's tests.* operations, no API key), against a real runtime: no suite yet is an answer
 * (null), refusals keep the code and field details. And which scenarios a failed run broke since
 * the last green one.
 */

/** A service of this test (closed when the test ends) and the Tests tab's client of it, as the renderer makes it. */
async function testsApi(): Promise<{ service: TestService; api: TestsApi }> {
  const { service, ipc } = await startBrowserMode()
  const operations = Object.fromEntries(IPC_OPERATION_NAMES.map((name) => [name, (input: unknown) => ipc.call(name, input as never)]))
  const bridge = { host: 'browser', operations } as unknown as VoiceDeskBridge
  return { service, api: createTestsApi(createCall(bridge)) }
}

const SUITE = { scenarios: [{ name: 'hello', caller: { say: ['Hello'] }, expect: { endReason: 'caller-hangup' } }] }

async function refusal(promise: Promise<unknown>): Promise<OperatorError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  )
  expect(error).toBeInstanceOf(OperatorError)
  return error as OperatorError
}

describe('the Tests tab client', () => {
  it('reads no suite as null, saves one, reads it back; lists runs', async () => {
    const { service, api } = await testsApi()
    const agent = await templateAgent(service, 'Restaurant Reservations')
    await expect(api.getSuite(agent.id)).resolves.toBeNull()
    const saved = await api.putSuite(agent.id, SUITE)
    expect(saved).toMatchObject({ agentId: agent.id, suite: SUITE })
    await expect(api.getSuite(agent.id)).resolves.toMatchObject({ suite: SUITE })
    await expect(api.listRuns(agent.id, 5)).resolves.toEqual([])
    expect((await api.starterSuite(agent.id)).scenarios.length).toBeGreaterThan(0)
  })

  it('keeps the code and details of a refusal; an unknown agent is not "no suite yet"', async () => {
    const { service, api } = await testsApi()
    const agent = await templateAgent(service, 'Restaurant Reservations')
    const wrongAgent = await refusal(api.putSuite(agent.id, { ...SUITE, agentId: 'someone-else' }))
    expect(wrongAgent.code).toBe('VALIDATION_ERROR')
    expect(wrongAgent.details.map((detail) => detail.path).join(' ')).toContain('agentId')
    const unknown = await refusal(api.getSuite('no-such-agent'))
    expect(unknown.code).toBe('NOT_FOUND')
    const noRun = await refusal(api.getRun('no-such-run'))
    expect(noRun.code).toBe('NOT_FOUND')
    const tooMany = await refusal(api.startRun(agent.id, { suite: SUITE, concurrency: 21 }))
    expect(tooMany.code).toBe('VALIDATION_ERROR')
    expect(tooMany.details.map((detail) => detail.path)).toContain('concurrency')
  })
})

describe('what a failed run broke since the last green one', () => {
  const result = (name: string, pass: boolean, round = 1) =>
    ({ name, round, status: pass ? 'PASSED' : 'FAILED', pass }) as unknown as TestRun['results'][number]
  const run = (results: TestRun['results']) => ({ results }) as TestRun

  it('names the scenarios that passed then and fail now, not new ones nor ones that failed then too', () => {
    const green = run([result('a', true), result('b', true), result('c', false)])
    const latest = run([result('a', true), result('b', false), result('c', false), result('d', false)])
    expect(brokenSince(green, latest)).toEqual(['b'])
  })

  it('counts a scenario once over rounds, and as broken when any round fails now', () => {
    const green = run([result('a', true, 1), result('a', true, 2)])
    const latest = run([result('a', true, 1), result('a', false, 2)])
    expect(brokenSince(green, latest)).toEqual(['a'])
  })
})
