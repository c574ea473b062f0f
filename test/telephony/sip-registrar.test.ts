import { afterEach, describe, expect, it } from 'vitest'
import { invokeOperation } from '../../src/service/operator/invoke-operation'
import type { IpcOperationName, IpcOutput, IpcResult } from '../../src/shared/ipc/operations'
import { closeCallsAndServers, setUpCall, type CallSetup } from '../helpers/web-sdk-call'
import { TestSoftphone } from '../helpers/sip-softphone'
import { newDialog, offer, RawSipPeer } from '../helpers/raw-sip'
import { networkInterfaces } from 'node:os'
import { signRequest } from 'sip/digest'
import { makeTempDir } from '../helpers/temp-dir'

/*
 * SIP users and the registrar, over a real line on loopback: the operator's operations
 * (sipUsers.*, calls.callSoftphone's refusals), REGISTER with digest authentication (challenge,
 * accept, wrong password, replayed nonce, Expires, unregister), and floods that never crash it.
 */

afterEach(closeCallsAndServers)

const AGENT = { greetingMessage: 'Hello there.', pokeMessages: [], interrupt: false, silenceThreshold: 30, tools: {} }

interface Line extends CallSetup {
  port: number
  /** The operation's result, as the UI gets it. */
  op: (name: string, input: unknown) => Promise<IpcResult<IpcOperationName>>
  /** The operation's data; throws when it failed. */
  data: <N extends IpcOperationName>(name: N, input: unknown) => Promise<IpcOutput<N>>
}

async function line(config: Record<string, unknown> = {}): Promise<Line> {
  const setup = await setUpCall(AGENT, { sip: { port: 0 }, ...config })
  const status = setup.service.runtime.sipLine()
  const handlers = setup.service.runtime.operatorHandlers('desktop')
  const op = (name: string, input: unknown) => invokeOperation(handlers, name, input)
  const data = async <N extends IpcOperationName>(name: N, input: unknown): Promise<IpcOutput<N>> => {
    const result = await op(name, input)
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
    return result.data as IpcOutput<N>
  }
  return { ...setup, port: status.state === 'listening' ? status.port : 0, op, data }
}

describe('SIP users (operator operations)', () => {
  it('adds with a password shown once, lists without secrets, resets, removes; refuses bad names, duplicates and unknown users', async () => {
    const setup = await line()
    expect(await setup.service.runtime.context.telephony.authRequired()).toBe(false)
    const added = await setup.data('sipUsers.add', { name: '+15551230001' })
    expect(await setup.service.runtime.context.telephony.authRequired()).toBe(true)
    expect(added.name).toBe('+15551230001')
    expect(added.password).toMatch(/^[A-Za-z0-9_-]{24}$/)
    const again = await setup.op('sipUsers.add', { name: '+15551230001' })
    expect(again).toMatchObject({ ok: false, error: { code: 'CONFLICT' } })
    expect(await setup.op('sipUsers.add', { name: 'bad name' })).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } })
    expect(await setup.op('sipUsers.add', { name: 'alice', extra: 1 })).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR' } })
    await setup.op('sipUsers.add', { name: 'alice' })

    const listed = await setup.data('sipUsers.list', {})
    expect(listed.users.map((user) => user.name)).toEqual(['+15551230001', 'alice'])
    expect(listed.users[0]).toEqual({ name: '+15551230001', createdAt: expect.any(String), registered: false })
    expect(JSON.stringify(listed)).not.toContain(added.password)

    const reset = await setup.op('sipUsers.resetPassword', { name: 'alice' })
    expect(reset).toMatchObject({ ok: true, data: { name: 'alice', password: expect.stringMatching(/^[A-Za-z0-9_-]{24}$/) } })
    expect(await setup.op('sipUsers.resetPassword', { name: 'nobody' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect(await setup.op('sipUsers.remove', { name: 'alice' })).toEqual({ ok: true, data: { removed: true } })
    expect(await setup.op('sipUsers.remove', { name: 'alice' })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it('calls.callSoftphone rings a registered user, and refuses clearly: unknown user, not registered, unknown agent, line off', async () => {
    const setup = await line()
    await setup.op('sipUsers.add', { name: 'bob' })
    const call = (sipUser: string, agentId = setup.agentId) => setup.op('calls.callSoftphone', { agentId, sipUser })
    expect(await call('nobody')).toMatchObject({ ok: false, error: { code: 'NOT_FOUND', message: expect.stringMatching(/No SIP user/) } })
    expect(await call('bob')).toMatchObject({ ok: false, error: { code: 'CONFLICT', message: expect.stringMatching(/not registered/) } })
    expect(await call('bob', '00000000-0000-4000-8000-000000000000')).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })

    // Registered: the agent rings the softphone, and the answer names the conversation.
    const added = await setup.data('sipUsers.add', { name: 'erin' })
    const phone = await TestSoftphone.open(setup.port)
    phone.mode = 'busy'
    expect((await phone.register('erin', added.password, 300)).final.status).toBe(200)
    const placed = await setup.data('calls.callSoftphone', { agentId: setup.agentId, sipUser: 'erin' })
    expect((await phone.next((message) => message.method === 'INVITE')).uri).toBe(`sip:erin@127.0.0.1:${phone.port}`)
    const job = await setup.service.runtime.store.jobs.findById(placed.conversationId)
    expect(job?.jobResponse).toMatchObject({ channel: 'SIP', direction: 'outbound', toNumber: 'erin' })

    const off = await setUpCall(AGENT, {})
    const offOp = (name: string, input: unknown) => invokeOperation(off.service.runtime.operatorHandlers('desktop'), name, input)
    await offOp('sipUsers.add', { name: 'bob' })
    expect(await offOp('calls.callSoftphone', { agentId: off.agentId, sipUser: 'bob' })).toMatchObject({
      ok: false,
      error: { code: 'CONFLICT', message: expect.stringMatching(/SIP line is off/) },
    })
  })
})

describe('REGISTER with digest authentication', () => {
  it('challenges, accepts the right password, refuses a wrong one and a replayed nonce, honours Expires and unregisters', async () => {
    const setup = await line()
    const data = await setup.data('sipUsers.add', { name: '+15551230002' })
    const phone = await TestSoftphone.open(setup.port)

    const { challenge, final } = await phone.register('+15551230002', data.password, 300)
    expect(challenge.status).toBe(401)
    expect(JSON.stringify(challenge.headers['www-authenticate'])).toMatch(/realm.*voicedesk/)
    expect(final.status).toBe(200)
    expect(Array.isArray(final.headers.contact) && final.headers.contact[0]?.params.expires).toBe('300')
    const listed = (await setup.data('sipUsers.list', {})).users[0]!
    expect(listed).toMatchObject({ name: '+15551230002', registered: true, contact: `sip:+15551230002@127.0.0.1:${phone.port}` })
    expect(Date.parse(listed.registeredUntil ?? '') - Date.now()).toBeGreaterThan(290_000)

    // The wrong password: 403, and the user stays as it was.
    expect((await phone.register('+15551230002', 'not-the-password', 300)).final.status).toBe(403)
    // A replayed request (the same nonce and count): refused.
    const fresh = await phone.transact(phone.registerRequest('+15551230002', 300))
    const signed = phone.registerRequest('+15551230002', 300)
    const { signRequest } = await import('sip/digest')
    signRequest({}, signed, fresh, { user: '+15551230002', password: data.password })
    expect((await phone.transact(signed)).status).toBe(200)
    const replay = structuredClone(signed)
    replay.headers.via![0]!.params.branch = `z9hG4bK${Math.random().toString(16).slice(2)}`
    expect((await phone.transact(replay)).status).toBe(403)
    // Another user's name with the password: 403. Registering another user's name: 403.
    expect((await phone.register('+15551239999', data.password, 300)).final.status).toBe(403)

    // Too brief: 423 with Min-Expires. Too long: cut to the maximum.
    const brief = await phone.register('+15551230002', data.password, 5)
    expect(brief.final.status).toBe(423)
    expect(brief.final.headers['min-expires']).toBe('60')
    const long = await phone.register('+15551230002', data.password, 999_999)
    expect(long.final.headers.expires).toBe('7200')
    // Expires: 0 unregisters.
    expect((await phone.register('+15551230002', data.password, 0)).final.status).toBe(200)
    expect((await setup.data('sipUsers.list', {})).users[0]!).toMatchObject({ registered: false })
    // A reset password: the old one no longer registers.
    await setup.op('sipUsers.resetPassword', { name: '+15551230002' })
    expect((await phone.register('+15551230002', data.password, 300)).final.status).toBe(403)
  })

  it('lets a registration expire', async () => {
    const setup = await line()
    const data = await setup.data('sipUsers.add', { name: 'carol' })
    const phone = await TestSoftphone.open(setup.port)
    expect((await phone.register('carol', data.password, 60)).final.status).toBe(200)
    const registrar = setup.service.runtime.sipLine()
    expect(registrar.state).toBe('listening')
    expect((await setup.data('sipUsers.list', {})).users[0]!.registered).toBe(true)
    // 61 seconds later (the registrar's clock, not the test's wait).
    const realNow = Date.now
    Date.now = () => realNow() + 61_000
    try {
      expect((await setup.data('sipUsers.list', {})).users[0]!.registered).toBe(false)
    } finally {
      Date.now = realNow
    }
  })

  it('survives a REGISTER flood with bad and missing digests, and still answers', async () => {
    const setup = await line()
    const data = await setup.data('sipUsers.add', { name: 'dave' })
    const peer = await RawSipPeer.open(setup.port)
    for (let index = 0; index < 3_000; index += 1) {
      const dialog = newDialog()
      const auth =
        index % 3 === 0
          ? [`Authorization: Digest username="dave", realm="voicedesk", nonce="${index}", uri="sip:x", response="00"`]
          : index % 3 === 1
            ? ['Authorization: Digest garbage']
            : []
      peer.send(peer.request('REGISTER', `sip:127.0.0.1:${setup.port}`, dialog, 1, { extra: auth }))
    }
    // Still answering: a real registration goes through, and an INVITE too.
    const phone = await TestSoftphone.open(setup.port)
    expect((await phone.register('dave', data.password, 120)).final.status).toBe(200)
    const dialog = newDialog()
    peer.send(peer.request('INVITE', `sip:+15559990000@127.0.0.1:${setup.port}`, dialog, 1, { sdp: offer(41_000) }))
    expect((await peer.next((message) => message.headers.get('call-id') === dialog.callId && (message.status ?? 0) >= 200)).status).toBe(
      404,
    )
  })
})

/** An IPv4 address of this machine that is not loopback (the line's "other machine" case), if it has one. */
const EXTERNAL = Object.values(networkInterfaces())
  .flat()
  .find((entry) => entry?.family === 'IPv4' && !entry.internal)?.address

describe.skipIf(!EXTERNAL)('a SIP line on another address than loopback', () => {
  it('is taken only once SIP users exist, and then an INVITE from another machine needs digest credentials', async () => {
    const host = EXTERNAL ?? ''
    const dataDir = makeTempDir()
    const first = await line({ dataDir, sip: { port: 0, host } })
    expect(first.service.runtime.sipLine()).toMatchObject({ state: 'failed', problem: expect.stringMatching(/no SIP users yet/) })
    const { password } = await first.data('sipUsers.add', { name: 'frank' })
    await first.service.runtime.stop()

    const second = await line({ dataDir, sip: { port: 0, host } })
    expect(second.service.runtime.sipLine()).toMatchObject({ state: 'listening', host })
    const phone = await TestSoftphone.open(second.port, host)
    const uri = `sip:+15557770000@${host}:${second.port}`
    const challenge = await phone.transact(phone.inviteRequest(uri, 'call-1@other'))
    expect(challenge.status).toBe(401)
    phone.send({ ...phone.inviteRequest(uri, 'call-1@other'), method: 'ACK', content: '' })
    const signed = phone.inviteRequest(uri, 'call-2@other')
    signRequest({}, signed, challenge, { user: 'frank', password })
    // Past the credentials: the number is not registered here.
    expect((await phone.transact(signed)).status).toBe(404)
    const wrong = phone.inviteRequest(uri, 'call-3@other')
    signRequest({}, wrong, await phone.transact(phone.inviteRequest(uri, 'call-4@other')), { user: 'frank', password: 'guess' })
    expect((await phone.transact(wrong)).status).toBe(403)
    // And a REGISTER from there works with the password.
    expect((await phone.register('frank', password, 120)).final.status).toBe(200)
  })
})
