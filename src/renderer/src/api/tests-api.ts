import { ERROR_STATUS, type ErrorDetail } from '../../../shared/api/errors'
import type { TestRun, TestSuite } from '../../../shared/api/test-suites'
import { OperatorError, type OperatorErrorCode } from './operator-error'

/** The stored suite of an agent, as GET/PUT …/test-suite answer it. */
export interface StoredSuite {
  agentId: string
  suite: TestSuite
  updatedAt: string
}

/**
 * An agent's test suite and runs, over the service's `/_voicedesk` routes (docs/api.md, "Test
 * suites and runs"), with an API key of the project: runs call the agent over `/stream` with it.
 * Refusals throw an OperatorError with the envelope's code and field details, as `call` does.
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

type FetchLike = (input: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<Response>

async function envelopeData<T>(response: Response): Promise<T> {
  let body: unknown
  try {
    body = await response.json()
  } catch {
    throw new OperatorError({ code: 'INTERNAL', message: `The service answered ${response.status} without JSON` })
  }
  const envelope = body as { success?: boolean; message?: unknown; data?: unknown; error?: { code?: unknown; details?: unknown } }
  if (response.ok && envelope.success === true) return envelope.data as T
  const code = envelope.error?.code
  throw new OperatorError({
    code: typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code) ? (code as OperatorErrorCode) : 'INTERNAL',
    message: typeof envelope.message === 'string' ? envelope.message : `The service answered ${response.status}`,
    details: Array.isArray(envelope.error?.details) ? (envelope.error.details as ErrorDetail[]) : [],
  })
}

export function createTestsApi(options: { baseUrl: string; apiKey: string; fetch?: FetchLike }): TestsApi {
  const doFetch: FetchLike = options.fetch ?? ((input, init) => fetch(input, init))
  const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    let response: Response
    try {
      response = await doFetch(`${options.baseUrl}/_voicedesk${path}`, {
        method,
        headers: {
          authorization: `Token ${options.apiKey}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      })
    } catch (error) {
      throw new OperatorError({
        code: 'INTERNAL',
        message: `Cannot reach the VoiceDesk service (${error instanceof Error ? error.message : String(error)})`,
      })
    }
    return envelopeData<T>(response)
  }
  const agentPath = (agentId: string) => `/agents/${encodeURIComponent(agentId)}`
  return {
    async getSuite(agentId) {
      try {
        return await request<StoredSuite>('GET', `${agentPath(agentId)}/test-suite`)
      } catch (error) {
        // No suite yet is an answer, not a failure; an unknown agent says so in its message.
        if (error instanceof OperatorError && error.code === 'NOT_FOUND' && /no test suite/i.test(error.message)) return null
        throw error
      }
    },
    putSuite: (agentId, suite) => request('PUT', `${agentPath(agentId)}/test-suite`, suite),
    starterSuite: (agentId) => request('GET', `${agentPath(agentId)}/test-suite/starter`),
    startRun: (agentId, body) => request('POST', `${agentPath(agentId)}/test-runs`, body),
    getRun: (id) => request('GET', `/test-runs/${encodeURIComponent(id)}`),
    listRuns: async (agentId, take) => (await request<{ runs: TestRun[] }>('GET', `${agentPath(agentId)}/test-runs?take=${take}`)).runs,
  }
}
