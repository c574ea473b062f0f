/**
 * The Tests tab's operations (tests.*) over browser mode's /ipc carrier, on a real runtime and
 * SQLite file listening on 127.0.0.1. The operator has no API key: a run it starts connects its
 * calls over /stream with a run ticket (ApiKeyAuthenticator.issueTicket), accepted until the run
 * ends, never stored and never listed among the keys.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiKeyAuthenticator, keyHint, type RunTicket } from '../../src/service/ops/api-keys'
import type { TestService } from '../helpers/test-service'
import { templateAgent } from '../helpers/test-runs'
import { startBrowserMode, type IpcClient } from './ipc-client'

const SUITE = { scenarios: [{ name: 'hello', caller: { say: ['Hello'] }, expect: { endReason: 'caller-hangup' } }] }

/** Whether `key` is accepted by the runtime's own authenticator, through the HTTP pipeline. */
async function accepted(service: TestService, key: string): Promise<boolean> {
  const status = (await service.call('GET', '/v1/voices', { key })).statusCode
  expect([200, 401]).toContain(status)
  return status === 200
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`${what}: not done after ${timeoutMs} ms (last: ${JSON.stringify(value)})`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function refusal(ipc: IpcClient, name: Parameters<IpcClient['post']>[0], input: unknown) {
  const { status, body } = await ipc.post(name, input)
  expect(status).toBe(200)
  expect(body, `${name} ${JSON.stringify(input)}`).toMatchObject({ ok: false })
  return (body as { error: { code: string; details: { path: string }[] } }).error
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('run tickets', () => {
  it('authenticate as their caller until revoked, one by one, and are never listed among the keys', async () => {
    const { service, ipc } = await startBrowserMode()
    const authenticator = new ApiKeyAuthenticator(service.runtime.context, (error) => {
      throw error
    })
    const caller = service.runtime.appCaller
    const keysBefore = await ipc.ok('keys.list', {})

    const ticket = authenticator.issueTicket(caller)
    const other = authenticator.issueTicket(caller)
    expect(ticket.key).toMatch(/^vd_[A-Za-z0-9_-]{43}$/)
    expect(other.key).not.toBe(ticket.key)
    await expect(authenticator.authenticate(`Token ${ticket.key}`)).resolves.toEqual(caller)
    expect(authenticator.knownCaller(`Bearer ${ticket.key}`)).toEqual(caller)

    const keysNow = await ipc.ok('keys.list', {})
    expect(keysNow).toEqual(keysBefore)
    expect(keysNow.map((key) => key.keyHint)).not.toContain(keyHint(ticket.key))

    ticket.revoke()
    await expect(authenticator.authenticate(`Token ${ticket.key}`)).resolves.toBeUndefined()
    expect(authenticator.knownCaller(`Token ${ticket.key}`)).toBeUndefined()
    await expect(authenticator.authenticate(`Token ${other.key}`)).resolves.toEqual(caller)
    // Held by that authenticator alone: the runtime's own knows nothing of it.
    expect(await accepted(service, other.key)).toBe(false)
  })

  it('lets the operator run a suite with no key: the calls connect with a ticket that ends with the run', async () => {
    const issued: RunTicket[] = []
    const issue = ApiKeyAuthenticator.prototype.issueTicket
    vi.spyOn(ApiKeyAuthenticator.prototype, 'issueTicket').mockImplementation(function (this: ApiKeyAuthenticator, caller) {
      const ticket = issue.call(this, caller)
      issued.push(ticket)
      return ticket
    })
    const { service, ipc } = await startBrowserMode({ host: '127.0.0.1' })
    const agent = await templateAgent(service, 'Restaurant Reservations')
    const keysBefore = await ipc.ok('keys.list', {})

    expect(await ipc.ok('tests.getSuite', { agentId: agent.id })).toBeNull()
    // No suite yet: refused, and the ticket it was given is revoked at once.
    expect((await refusal(ipc, 'tests.startRun', { agentId: agent.id })).code).toBe('CONFLICT')
    expect(issued).toHaveLength(1)
    expect(await accepted(service, issued[0]!.key)).toBe(false)

    expect((await ipc.ok('tests.starterSuite', { agentId: agent.id })).scenarios.length).toBeGreaterThan(0)
    expect(await ipc.ok('tests.putSuite', { agentId: agent.id, suite: SUITE })).toMatchObject({ agentId: agent.id, suite: SUITE })
    expect(await ipc.ok('tests.getSuite', { agentId: agent.id })).toMatchObject({ agentId: agent.id, suite: SUITE })

    const started = await ipc.ok('tests.startRun', { agentId: agent.id, concurrency: 1 })
    expect(started.status).toBe('RUNNING')
    const ticket = issued[1]!
    expect(await accepted(service, ticket.key)).toBe(true)
    const run = await until(
      'the run',
      () => ipc.ok('tests.getRun', { id: started.id }),
      (read) => read.status !== 'RUNNING',
    )
    expect(run.results[0]?.error ?? null).toBeNull()
    expect(run.status).toBe('PASSED')
    expect(run.results[0]?.conversationId).not.toBeNull()
    await until(
      'the ticket revoked',
      () => accepted(service, ticket.key),
      (ok) => !ok,
      5_000,
    )

    expect((await ipc.ok('tests.listRuns', { agentId: agent.id, take: 5 })).runs.map((listed) => listed.id)).toEqual([started.id])
    expect(await ipc.ok('keys.list', {})).toEqual(keysBefore)
    expect(issued).toHaveLength(2)
  }, 120_000)

  it('refuses bad input in the contract shape, and unknown agents and runs as NOT_FOUND', async () => {
    const { service, ipc } = await startBrowserMode()
    const agent = await templateAgent(service, 'Restaurant Reservations')
    for (const [name, input] of [
      ['tests.getSuite', { agentId: '' }],
      ['tests.getSuite', { agentId: agent.id, extra: 1 }],
      ['tests.putSuite', { agentId: agent.id, suite: { scenarios: [] } }],
      ['tests.startRun', { agentId: agent.id, concurrency: 0 }],
      ['tests.startRun', { agentId: agent.id, repeat: 51 }],
      ['tests.listRuns', { agentId: agent.id, take: 0 }],
      ['tests.listRuns', { agentId: agent.id, take: '5' }],
      ['tests.getRun', {}],
    ] as const) {
      expect((await refusal(ipc, name, input)).code, `${name} ${JSON.stringify(input)}`).toBe('VALIDATION_ERROR')
    }
    const wrongAgent = await refusal(ipc, 'tests.putSuite', { agentId: agent.id, suite: { ...SUITE, agentId: 'someone-else' } })
    expect(wrongAgent.code).toBe('VALIDATION_ERROR')
    expect(wrongAgent.details.map((detail) => detail.path).join(' ')).toContain('agentId')
    for (const [name, input] of [
      ['tests.getSuite', { agentId: 'no-such-agent' }],
      ['tests.starterSuite', { agentId: 'no-such-agent' }],
      ['tests.listRuns', { agentId: 'no-such-agent', take: 5 }],
      ['tests.startRun', { agentId: 'no-such-agent', suite: SUITE }],
      ['tests.getRun', { id: 'no-such-run' }],
    ] as const) {
      expect((await refusal(ipc, name, input)).code, `${name} ${JSON.stringify(input)}`).toBe('NOT_FOUND')
    }
  })
})
