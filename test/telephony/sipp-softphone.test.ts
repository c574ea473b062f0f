import { spawn } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { invokeOperation } from '../../src/service/operator/invoke-operation'
import { findFreePort } from '../helpers/spawn-cli'
import { SCENARIOS } from '../helpers/sipp'
import { makeTempDir } from '../helpers/temp-dir'
import { closeCallsAndServers, ended, setUpCall } from '../helpers/web-sdk-call'
import { join } from 'node:path'

/*
 * SIPp as the softphone: its own digest implementation registers a SIP user (not sip.js's, which
 * the line checks with), then SIPp as a server rings and never answers the agent's call: the
 * line's CANCEL at the ring timeout is answered 487 and the conversation ends FAILED, CALL_NO_ANSWER.
 */

afterEach(closeCallsAndServers)

function sipp(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawn('/usr/bin/sipp', [...args, '-i', '127.0.0.1', '-m', '1', '-nostdin', '-timeout', '20s', '-timeout_error'], {
    cwd: makeTempDir(),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })))
}

describe('SIPp as a registered softphone', () => {
  it('registers with SIPp’s own digest, and a ring that is never answered ends FAILED CALL_NO_ANSWER after a CANCEL', async () => {
    const setup = await setUpCall({ greetingMessage: 'Hello.', pokeMessages: [], tools: {} }, { sip: { port: 0, ringTimeoutMs: 1_500 } })
    const status = setup.service.runtime.sipLine()
    if (status.state !== 'listening') throw new Error('no SIP line')
    const added = await invokeOperation(setup.service.runtime.operatorHandlers('desktop'), 'sipUsers.add', { name: '+15551230060' })
    if (!added.ok) throw new Error(added.error.message)
    const password = (added.data as { password: string }).password
    const phonePort = await findFreePort()
    const register = (secret: string) =>
      sipp([
        '-sf',
        join(SCENARIOS, 'register.xml'),
        '-s',
        '+15551230060',
        '-au',
        '+15551230060',
        '-ap',
        secret,
        '-p',
        String(phonePort),
        `127.0.0.1:${status.port}`,
      ])

    const wrong = await register('wrong-password')
    expect(wrong.code).not.toBe(0)
    const registered = await register(password)
    expect(registered.code, registered.output.slice(-2_000)).toBe(0)

    // The same port, now a phone that rings for ever.
    const ringing = sipp(['-sf', join(SCENARIOS, 'ring-never-answer.xml'), '-p', String(phonePort)])
    await new Promise((resolve) => setTimeout(resolve, 500))
    const response = await setup.service.call('POST', '/v1/voice-agents/call', {
      body: { toNumber: '+15551230060', voiceAgentId: setup.agentId },
    })
    expect(response.statusCode, response.body).toBe(200)
    const { call } = await ended(setup, response.json<{ data: { id: string } }>().data.id, Date.now(), 10_000)
    expect(call.status).toBe('FAILED')
    expect(call.error?.code).toBe('CALL_NO_ANSWER')
    const uas = await ringing
    expect(uas.code, uas.output.slice(-2_000)).toBe(0)
  })
})
