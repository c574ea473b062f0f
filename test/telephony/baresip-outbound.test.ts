import { spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { invokeOperation } from '../../src/service/operator/invoke-operation'
import { findFreePort } from '../helpers/spawn-cli'
import { makeTempDir } from '../helpers/temp-dir'
import { closeCallsAndServers, ended, setUpCall } from '../helpers/web-sdk-call'

/*
 * A real softphone: Debian's baresip, headless (its own config folder, no audio device: the
 * aubridge module joins its speaker to its microphone, so it plays back what it hears, and the
 * sndfile module writes what it hears to a WAV). It REGISTERs with the password sipUsers.add printed, answers the agent's
 * call by itself (answermode=auto), and the test checks the greeting it recorded is audio, then
 * hangs up from the phone: the conversation ends COMPLETED with its call.ended webhook.
 */

const phones: ChildProcess[] = []
afterEach(async () => {
  for (const phone of phones.splice(0)) {
    if (phone.exitCode !== null || phone.signalCode !== null) continue
    const exited = new Promise((resolve) => phone.once('exit', resolve))
    phone.kill('SIGKILL')
    await exited
  }
  await closeCallsAndServers()
})

const AGENT = {
  greetingMessage: 'Hello, this is Olive Grove calling to confirm your table for tonight.',
  pokeMessages: [],
  interrupt: false,
  tools: {},
}

interface Baresip {
  process: ChildProcess
  output: () => string
  /** Writes a command to baresip's console (the stdio UI), as a user types it. */
  command: (text: string) => void
  recordings: string
}

async function startBaresip(user: string, password: string, linePort: number, transport: 'udp' | 'tcp'): Promise<Baresip> {
  const folder = makeTempDir()
  const recordings = makeTempDir()
  const sipPort = await findFreePort()
  writeFileSync(
    join(folder, 'config'),
    [
      'poll_method epoll',
      `sip_listen 127.0.0.1:${sipPort}`,
      `sip_trans_def ${transport}`,
      'module_path /usr/lib/baresip/modules',
      'module stdio.so',
      'module g711.so',
      'module aubridge.so',
      'module sndfile.so',
      'module_app account.so',
      'module_app menu.so',
      'audio_player aubridge,speaker',
      'audio_alert aubridge,speaker',
      'audio_source aubridge,speaker',
      `snd_path ${recordings}`,
      'rtp_ports 30000-39999',
      '',
    ].join('\n'),
  )
  writeFileSync(
    join(folder, 'accounts'),
    `<sip:${user}@127.0.0.1:${linePort};transport=${transport}>;auth_pass=${password};answermode=auto;regint=60\n`,
  )
  writeFileSync(join(folder, 'contacts'), '')
  const child = spawn('/usr/bin/baresip', ['-f', folder, '-n', '127.0.0.1'], { stdio: ['pipe', 'pipe', 'pipe'] })
  phones.push(child)
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return { process: child, output: () => output, command: (text) => child.stdin?.write(text), recordings }
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000, context = () => ''): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}\n${context()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

/** The samples of a 16-bit PCM WAV that is still being written (its sizes are filled in only when it closes). */
function wavSamples(file: string): Int16Array {
  const bytes = readFileSync(file)
  let offset = 12
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('ascii', offset, offset + 4)
    const size = bytes.readUInt32LE(offset + 4)
    if (id === 'data') {
      const data = bytes.subarray(offset + 8)
      return new Int16Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength - (data.byteLength % 2)))
    }
    offset += 8 + size
  }
  return new Int16Array(0)
}

describe.each(['udp', 'tcp'] as const)('an outbound call to baresip over %s', (transport) => {
  it('registers with the printed password, rings, auto-answers, hears the greeting, and ends COMPLETED with call.ended after its BYE', async () => {
    const setup = await setUpCall(AGENT, { sip: { port: 0 } })
    const status = setup.service.runtime.sipLine()
    if (status.state !== 'listening') throw new Error('no SIP line')
    const handlers = setup.service.runtime.operatorHandlers('desktop')
    const added = await invokeOperation(handlers, 'sipUsers.add', { name: '+15551230050' })
    if (!added.ok) throw new Error(added.error.message)
    const phone = await startBaresip('+15551230050', (added.data as { password: string }).password, status.port, transport)

    await until(
      'baresip to register',
      async () => {
        const listed = await invokeOperation(handlers, 'sipUsers.list', {})
        return listed.ok && (listed.data as { users: { registered: boolean }[] }).users[0]?.registered === true
      },
      15_000,
      phone.output,
    )

    const listed = await invokeOperation(handlers, 'sipUsers.list', {})
    const contact = listed.ok ? (listed.data as { users: { contact?: string }[] }).users[0]?.contact : undefined
    if (transport === 'tcp') expect(contact).toMatch(/transport=tcp/i)
    else expect(contact).not.toMatch(/transport=tcp/i)

    const response = await setup.service.call('POST', '/v1/voice-agents/call', {
      body: { toNumber: '+15551230050', voiceAgentId: setup.agentId, params: { customerName: 'Sara' } },
    })
    expect(response.statusCode, response.body).toBe(200)
    const jobId = response.json<{ data: { id: string } }>().data.id

    // The greeting plays for a few seconds; baresip records it (decoded) as it arrives.
    const recorded = () => readdirSync(phone.recordings).filter((name) => name.endsWith('-dec.wav'))
    await until('baresip to record what it hears', () => recorded().length > 0, 15_000, phone.output)
    const file = join(phone.recordings, recorded()[0]!)
    await until('two seconds of the greeting', () => wavSamples(file).length > 16_000, 15_000, phone.output)
    const samples = wavSamples(file)
    const loud = samples.filter((sample) => Math.abs(sample) > 500).length
    expect(loud).toBeGreaterThan(2_000)

    // The phone hangs up ("b" in baresip's menu): its BYE ends the call.
    phone.command('b')
    const { call } = await ended(setup, jobId, Date.now(), 10_000)
    expect(call.status).toBe('COMPLETED')
    const job = await setup.service.runtime.store.jobs.findById(jobId)
    expect(job?.jobResponse).toMatchObject({ channel: 'SIP', direction: 'outbound', toNumber: '+15551230050', endReason: 'caller-hangup' })
    await until('the call.ended webhook', () =>
      setup.receiver.requests.some((request) => {
        const body = JSON.parse(request.body) as { eventType?: string; callId?: string; data?: { status?: string } }
        return body.eventType === 'call.ended' && body.callId === jobId && body.data?.status === 'COMPLETED'
      }),
    )
  })
})
