import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { CreateVoiceAgentBodySchema } from '../../src/shared/api/voice-agents'
import { invokeOperation } from '../../src/service/operator/invoke-operation'
import { validationDetails, validationSummary } from '../../src/service/ops/validation-details'
import { startTestService } from '../helpers/test-service'

const issuesOf = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value)
  if (parsed.success) throw new Error('expected a refusal')
  return parsed.error.issues
}

describe('validationDetails: one mapping of zod issues for both transports', () => {
  const Schema = z.object({ name: z.string().min(1), inner: z.object({ n: z.number() }).strict() }).strict()

  it('names each unknown field, nested paths joined with dots, under the root the transport gives', () => {
    const issues = issuesOf(Schema, { name: '', inner: { n: 'x', extra: 1 }, bogus: true, other: 2 })
    const relative = validationDetails(issues)
    expect(relative).toEqual([
      { path: 'name', message: expect.any(String) },
      { path: 'inner.n', message: expect.any(String) },
      { path: 'inner.extra', message: 'Unknown field "extra"' },
      { path: 'bogus', message: 'Unknown field "bogus"' },
      { path: 'other', message: 'Unknown field "other"' },
    ])
    expect(validationDetails(issues, 'body')).toEqual(relative.map((detail) => ({ ...detail, path: `body.${detail.path}` })))
    expect(validationSummary('Invalid request', validationDetails(issues, 'body'))).toBe(
      `Invalid request: body.name: ${relative[0]!.message} (and 4 more)`,
    )
    expect(validationSummary('Invalid input', [])).toBe('Invalid input')
  })

  it('names the root itself: the body (missing: "A JSON object body is required"), a query, or an operation input', () => {
    expect(validationDetails(issuesOf(Schema, undefined), 'body')).toEqual([{ path: 'body', message: 'A JSON object body is required' }])
    expect(validationDetails(issuesOf(Schema, null), 'query')).toEqual([{ path: 'query', message: 'Required' }])
    const wrongType = issuesOf(Schema, 'text')
    expect(validationDetails(wrongType, 'body')).toEqual([{ path: 'body', message: wrongType[0]!.message }])
    expect(validationDetails(wrongType)).toEqual([{ path: 'input', message: wrongType[0]!.message }])
  })

  it('gives /v1 and IPC the same words for the same refusal; only the prefix differs', async () => {
    const service = await startTestService()
    const input = { agentName: '', lang: 'xx', bogus: 1 }
    expect(CreateVoiceAgentBodySchema.safeParse(input).success).toBe(false)
    const http = (await service.call('POST', '/v1/voice-agents', { body: input })).json()
    const ipc = await invokeOperation(service.runtime.operatorHandlers('desktop'), 'agents.create', input)
    expect(ipc.ok).toBe(false)
    if (ipc.ok) return
    expect(http.error.details.length).toBe(3)
    expect(http.error.details).toEqual(ipc.error.details.map((detail) => ({ ...detail, path: `body.${detail.path}` })))
    expect(http.message.replace('Invalid request: body.', '')).toBe(ipc.error.message.replace('Invalid input: ', ''))
  })
})
