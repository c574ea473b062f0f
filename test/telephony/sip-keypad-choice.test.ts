import { afterEach, describe, expect, it } from 'vitest'
import type { Conversation } from '../../src/shared/api/conversations'
import { closeCallsAndServers, conversation, setUpCall, type CallSetup } from '../helpers/web-sdk-call'
import { runSipp } from '../helpers/sipp'

/*
 * Keys that choose, over a real SIP call: a SIPp caller (test/fixtures/sip/keypad-choice.xml)
 * answers a question whose options the agent numbers, with a key out of range, then one in range,
 * then an account number, all as SIP INFO; the transcript and the outcome say what each did.
 */

afterEach(closeCallsAndServers)

const DESK_AGENT = {
  agentName: 'Front Desk',
  greetingMessage: 'Front desk, hello.',
  preamble: 'You route calls.',
  outcome: 'The department and the account number',
  outcomeResponseShape: {
    type: 'object',
    properties: {
      department: { type: 'string', enum: ['sales', 'support', 'billing'], description: 'The department the caller wants' },
      accountNumber: { type: 'string', description: "The caller's account number" },
    },
    required: ['department', 'accountNumber'],
  },
  pokeMessages: [],
  interrupt: true,
  silenceThreshold: 30,
  tools: {},
}

async function endedCall(setup: CallSetup): Promise<Conversation> {
  for (let tries = 0; tries < 100; tries += 1) {
    const response = await setup.service.call('GET', '/v1/voice-agents/conversations/minimal-list')
    const [call] = response.json<{ data: { calls: { id: string; status: string }[] } }>().data.calls
    if (call && (call.status === 'COMPLETED' || call.status === 'FAILED')) return conversation(setup, call.id)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('The call did not end')
}

describe('keys that choose an option, over SIP', () => {
  it('numbers the options, refuses 7, takes 2 as the second option, and the next digits fill the account number', async () => {
    const setup = await setUpCall(DESK_AGENT, { sip: { port: 0 } })
    const status = setup.service.runtime.sipLine()
    if (status.state !== 'listening') throw new Error(`The SIP line is ${status.state}`)
    for (const [path, body] of [
      [
        '/v1/voice-agents/phone-number',
        { type: 'TELEPHONY', phoneNumber: '+15551230077', label: 'Desk', providerAccountSid: 'AC1', providerAuthToken: 'token' },
      ],
      ['/v1/voice-agents/assign-number', { voiceAgentId: setup.agentId, phoneNumber: '+15551230077' }],
    ] as const) {
      const response = await setup.service.call('POST', path, { body })
      expect(response.statusCode, response.body).toBe(200)
    }
    const sipp = await runSipp('keypad-choice.xml', { port: status.port, number: '+15551230077', pauseMs: 32_000, timeoutS: 90 })
    expect(sipp.code, sipp.stdout + sipp.errors).toBe(0)
    const call = await endedCall(setup)
    const turns = call.transcript.map((turn) => ({ role: turn.role, content: turn.content, kind: turn.kind }))
    expect(
      turns.filter((turn) => turn.role === 'caller'),
      JSON.stringify(turns),
    ).toEqual([
      { role: 'caller', content: '7', kind: 'dtmf' },
      { role: 'caller', content: '2', kind: 'dtmf' },
      { role: 'caller', content: '4217', kind: 'dtmf' },
    ])
    const answerTo = (content: string) => turns[turns.findIndex((turn) => turn.content === content) + 1]?.content ?? ''
    expect(turns[0]!.content).toContain('You can also press 1 for sales, 2 for support or 3 for billing.')
    expect(answerTo('7')).toMatch(/^Sorry, 7 is not one of the options: they go from 1 to 3\. .*press 1 for sales/)
    expect(answerTo('2')).toMatch(/account number/)
    expect(call.outcomeResult).toMatchObject({ department: 'support', accountNumber: '4217' })
  }, 120_000)
})
