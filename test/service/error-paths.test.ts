/**
 * A use case reports where its input is wrong relative to that input (`webhookUrl`); each
 * transport says where the input came from: /v1 prefixes the request part (`body.`, `query.`),
 * IPC reports the path as it is (under `changes.` for agents.update, whose use case gets
 * `changes`). The operator UI then shows each message beside its field.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fieldErrorsOf } from '../../src/renderer/src/lib/field-errors'
import type { IpcOperationName } from '../../src/shared/ipc/operations'
import { invokeOperation } from '../../src/service/operator/invoke-operation'
import { startTestService, type TestService } from '../helpers/test-service'

const AVA = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'
const METADATA = 'http://169.254.169.254/latest/meta-data/'
const BAD_SHAPE = { type: 'object', properties: { when: { type: 'date' } } }

async function ipcError(service: TestService, name: IpcOperationName, input: unknown) {
  const result = await invokeOperation(service.runtime.operatorHandlers('desktop'), name, input)
  if (result.ok) throw new Error(`${name} was not refused`)
  return result.error
}

describe('error paths of a use case, per transport', () => {
  it('over IPC: relative to the operation input, so the UI finds the field', async () => {
    const service = await startTestService()
    const agent = (await invokeOperation(service.runtime.operatorHandlers('desktop'), 'agents.create', { agentName: 'Desk' })) as {
      ok: true
      data: { id: string }
    }

    const created = await ipcError(service, 'agents.create', { agentName: 'Desk', webhookUrl: METADATA })
    expect(created).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'webhookUrl' }] })
    expect(created.message).toMatch(/^Invalid input: webhookUrl: .*cloud metadata/)
    expect(Object.keys(fieldErrorsOf(created.details, 'en'))).toEqual(['webhookUrl'])

    const updated = await ipcError(service, 'agents.update', { id: agent.data.id, changes: { webhookUrl: METADATA } })
    expect(updated).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'changes.webhookUrl' }] })
    expect(updated.message).toMatch(/^Invalid input: changes\.webhookUrl: /)
    expect(Object.keys(fieldErrorsOf(updated.details, 'en'))).toEqual(['webhookUrl'])

    const tts = await ipcError(service, 'jobs.createTts', { voiceId: AVA, text: 'Hi', webhookUrl: METADATA })
    expect(tts.details).toEqual([{ path: 'webhookUrl', message: expect.stringMatching(/webhooks are not sent there/) }])

    const number = { type: 'TELEPHONY', phoneNumber: '+4412', label: 'x', providerAccountSid: 'AC1', providerAuthToken: 't' }
    const impossible = await ipcError(service, 'numbers.add', number)
    expect(impossible).toEqual({
      code: 'VALIDATION_ERROR',
      message: 'Invalid input: phoneNumber: +4412 is not a possible number for its country code',
      details: [{ path: 'phoneNumber', message: '+4412 is not a possible number for its country code' }],
    })
    expect(fieldErrorsOf(impossible.details, 'en')).toEqual({ phoneNumber: ['«+4412» is not a possible number for its country code.'] })
    const valid = { ...number, phoneNumber: '+14155550123' }
    expect((await invokeOperation(service.runtime.operatorHandlers('desktop'), 'numbers.add', valid)).ok).toBe(true)
    // Not a VALIDATION_ERROR: the message stays the use case's, the detail is relative all the same.
    expect(await ipcError(service, 'numbers.add', valid)).toMatchObject({
      code: 'CONFLICT',
      message: '+14155550123 is already registered in this project',
      details: [{ path: 'phoneNumber' }],
    })

    // A nested path found by the schema: the field is the top-level one, the rest says where in it.
    const shape = await ipcError(service, 'agents.update', { id: agent.data.id, changes: { outcomeResponseShape: BAD_SHAPE } })
    expect(shape.details.map((detail) => detail.path)).toEqual(['changes.outcomeResponseShape.properties.when.type'])
    expect(Object.entries(fieldErrorsOf(shape.details, 'en'))).toEqual([
      ['outcomeResponseShape', [expect.stringMatching(/^In «\u2066properties\.when\.type\u2069»: /)]],
    ])
  })

  it('over /v1: placed in the request part the field came from, byte for byte as before', async () => {
    const service = await startTestService()
    const number = { type: 'TELEPHONY', phoneNumber: '+4412', label: 'x', providerAccountSid: 'AC1', providerAuthToken: 't' }
    const impossible = await service.call('POST', '/v1/voice-agents/phone-number', { body: number })
    expect(impossible.statusCode).toBe(400)
    expect(impossible.body).toBe(
      JSON.stringify({
        success: false,
        message: 'Invalid request: body.phoneNumber: +4412 is not a possible number for its country code',
        error: {
          code: 'VALIDATION_ERROR',
          details: [{ path: 'body.phoneNumber', message: '+4412 is not a possible number for its country code' }],
        },
      }),
    )

    const agent = (await service.call('POST', '/v1/voice-agents', { body: { agentName: 'Desk' } })).json().data
    const patched = await service.call('PATCH', `/v1/voice-agents/${agent.id}`, { body: { webhookUrl: METADATA } })
    expect(patched.json()).toMatchObject({
      message: expect.stringMatching(/^Invalid request: body\.webhookUrl: /),
      error: { details: [{ path: 'body.webhookUrl' }] },
    })
    const shape = await service.call('PATCH', `/v1/voice-agents/${agent.id}`, { body: { outcomeResponseShape: BAD_SHAPE } })
    expect(shape.json().error.details.map((detail: { path: string }) => detail.path)).toEqual([
      'body.outcomeResponseShape.properties.when.type',
    ])

    // The use case names `projectId`; it came in the query string.
    const other = await service.otherProject()
    const forbidden = await service.call('POST', `/v1/jobs/all?projectId=${service.runtime.bootstrap.projectId}`, {
      key: other.key,
      body: {},
    })
    expect(forbidden.body).toBe(
      JSON.stringify({
        success: false,
        message: 'This key belongs to another project',
        error: { code: 'FORBIDDEN', details: [{ path: 'query.projectId', message: 'Not the key’s project' }] },
      }),
    )
  })

  it('are never written with a transport prefix by a use case (src/service/ops)', () => {
    const dir = join(import.meta.dirname, '../../src/service/ops')
    const prefixed = readdirSync(dir)
      .filter((name) => name.endsWith('.ts'))
      .flatMap((name) => {
        const code = readFileSync(join(dir, name), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '') // comments may name /v1 paths
        return [...code.matchAll(/['"`](body|query|params)\.[A-Za-z]/g)].map((match) => `${name}: ${match[0]}`)
      })
    expect(prefixed).toEqual([])
  })
})
