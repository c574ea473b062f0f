/**
 * Every operation of the operator UI's contract, run through the handler table of a real
 * runtime (real SQLite file, job runner, engines, webhook sender to a loopback receiver) with
 * valid inputs and seeded data, its output checked against the contract's output schema: it
 * parses, and parsing drops nothing (an output with a field its schema does not name, such as
 * a write-only secret, fails too). An operation added to the contract and not run here fails
 * the last assertion.
 */
import { describe, expect, it } from 'vitest'
import { IPC_OPERATION_NAMES, IPC_OPERATIONS, type IpcInput, type IpcOperationName, type IpcOutput } from '../../src/shared/ipc/operations'
import { invokeOperation } from '../../src/service/operator/invoke-operation'
import { seedJob } from '../helpers/seed-jobs'
import { startTestService } from '../helpers/test-service'
import { startWebhookReceiver } from '../helpers/webhook-receiver'

const AVA = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`${what}: not done after ${timeoutMs} ms (last: ${JSON.stringify(value)})`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

describe('the IPC contract: outputs', () => {
  it('every operation answers what its output schema says, on real data', async () => {
    // Listening: a test run calls this service over its own /stream.
    const service = await startTestService({ port: 0, host: '127.0.0.1' })
    const { runtime } = service
    await runtime.start()
    const handlers = runtime.operatorHandlers('desktop')
    const receiver = await startWebhookReceiver()
    const called = new Set<IpcOperationName>()

    const run = async <N extends IpcOperationName>(name: N, input: IpcInput<N>): Promise<IpcOutput<N>> => {
      const result = await invokeOperation(handlers, name, input, (error) => {
        throw error
      })
      if (!result.ok) throw new Error(`${name} was refused: ${JSON.stringify(result.error)}`)
      const parsed = IPC_OPERATIONS[name].output.safeParse(result.data)
      expect(parsed.error?.issues ?? [], `${name}: output against its schema`).toEqual([])
      expect(parsed.data, `${name}: fields its schema does not name`).toEqual(result.data)
      called.add(name)
      return result.data as IpcOutput<N>
    }

    // Seeded: jobs of the types this VoiceDesk lists but does not run, and a FAILED one.
    const transcription = await seedJob(runtime, { type: 'TRANSCRIPTION', title: 'Seeded call' })
    await seedJob(runtime, { type: 'TRANSLATION', title: 'Seeded translation', toLng: 'ar' })
    const failed = await seedJob(runtime, {
      type: 'TTS',
      status: 'FAILED',
      errorCode: 'TTS_ENGINE_FAILED',
      errorMessage: 'The engine stopped',
      text: 'x',
      voiceId: AVA,
    })

    await run('service.info', {})
    await run('voices.list', {})
    await run('voices.sample', { voiceId: AVA, text: 'Hello.' })
    const templates = await run('templates.list', {})
    await run('settings.get', {})
    await run('settings.setCorsOrigins', { corsOrigins: ['http://localhost:3000'] })
    await run('settings.setCorsOrigins', { corsOrigins: null })

    await run('keys.list', {})
    const key = await run('keys.create', { name: 'Zapier' })
    await run('keys.revoke', { id: key.info.id })

    const fault = await run('faults.add', {
      match: { path: '/v1/voices' },
      delayMs: { min: 1, max: 2 },
      rate: 0.5,
      expiresInSeconds: 60,
      note: 'slow voices',
    })
    await run('faults.add', {
      match: { jobType: 'TTS', agentId: 'agent-x' },
      failJob: { code: 'TTS_ENGINE_FAILED', message: 'Injected' },
      failWebhook: { status: 503 },
    })
    await run('faults.list', {})
    await run('faults.remove', { id: fault.id })
    await run('faults.clear', {})

    const webhook = { webhookUrl: `${receiver.url}/hook`, webhookAuth: { authKey: 'Bearer', authSecret: 'a-long-enough-secret' } }
    const agent = await run('agents.create', {
      agentName: 'Front desk',
      lang: 'en',
      ...webhook,
      params: { company: 'Acme' },
      outcomeResponseShape: { type: 'object', properties: { resolved: { type: 'boolean' } }, required: ['resolved'] },
    })
    await run('agents.get', { id: agent.id })
    expect(agent.tools).toEqual({ genderDetection: false, smartCallEnd: false })
    const updated = await run('agents.update', { id: agent.id, changes: { greetingMessage: 'Hi there!', tools: { smartCallEnd: true } } })
    expect(updated.tools).toEqual({ genderDetection: false, smartCallEnd: true })
    const clone = await run('agents.clone', { sourceId: templates[0]!.id, agentName: 'From a template' })
    await run('agents.clone', { sourceId: agent.id })
    const listed = await run('agents.list', { lang: 'en' })
    expect(listed.agents.find((item) => item.id === agent.id)?.tools).toEqual({ genderDetection: false, smartCallEnd: true })
    expect((await run('agents.get', { id: agent.id })).tools).toEqual({ genderDetection: false, smartCallEnd: true })
    // A copy of a template starts with smartCallEnd on (docs/api.md).
    expect(clone.tools).toEqual({ genderDetection: false, smartCallEnd: true })

    const number = await run('numbers.add', {
      type: 'TELEPHONY',
      phoneNumber: '+14155550123',
      label: 'Line',
      providerAccountSid: 'AC1',
      providerAuthToken: 'provider-secret',
    })
    await run('numbers.assign', { voiceAgentId: agent.id, phoneNumber: number.number })
    await run('numbers.list', { voiceAgentId: agent.id })
    await run('numbers.unassign', { phoneNumber: number.number })

    const tts = await run('jobs.createTts', { voiceId: AVA, text: 'Your order has shipped.', ...webhook })
    const done = await until(
      'the TTS job',
      () => run('jobs.get', { id: tts.id }),
      (read) => read.job.status !== 'PENDING',
    )
    expect(done.job.status).toBe('COMPLETED')
    const ai = await run('jobs.createAiContent', { sourceJobId: tts.id, aiParts: ['summary', 'keywords', 'faq'] })
    await until(
      'the AI-content job',
      () => run('jobs.getAiContent', { id: ai.id }),
      (read) => read.status !== 'PENDING',
    )
    expect((await run('jobs.getAiContent', { id: tts.id })).status).toBe('COMPLETED')
    await run('jobs.createAiContent', { sourceJobId: transcription.id, aiParts: ['titles'] })
    const segments = [{ start: 0, end: 1.25, text: 'Hello there.' }]
    const timed = await seedJob(runtime, {
      type: 'TRANSCRIPTION',
      title: 'Timed call',
      text: 'Hello there.',
      jobResponse: { text: 'Hello there.', language: 'en', durationSeconds: 2, segments },
    })
    expect((await run('jobs.subtitles', { jobId: timed.id, format: 'vtt' })).text).toMatch(/^WEBVTT\n/)
    const translation = await run('jobs.translate', { jobId: timed.id, toLng: 'ar' })
    expect(await run('jobs.get', { id: translation.id })).toMatchObject({ job: { relevantJobId: timed.id }, playableMediaUrl: null })
    expect((await run('jobs.transcriptionUploadLink', { language: 'en' })).url).toMatch(
      /\/_voicedesk\/links\/transcribe\/[A-Za-z0-9_-]{32}$/,
    )
    expect(await run('jobs.createTranscription', { mediaUrl: 'http://example.com/call.mp3', title: 'A call' })).toMatchObject({
      type: 'TRANSCRIPTION',
      title: 'A call',
    })
    expect((await run('jobs.get', { id: failed.id })).job.error).toEqual({ code: 'TTS_ENGINE_FAILED', message: 'The engine stopped' })
    const retried = await run('jobs.retry', { jobId: failed.id })
    expect(retried).toMatchObject({ type: 'TTS', status: 'PENDING', title: failed.title })
    const list = await run('jobs.list', { take: 100 })
    expect(new Set(list.jobs.map((job) => job.type))).toEqual(new Set(['TTS', 'AI_CONTENT', 'TRANSCRIPTION', 'TRANSLATION']))

    await receiver.waitForRequests(1)
    const { deliveries } = await until(
      'the delivery',
      () => run('webhooks.list', { jobId: tts.id }),
      (page) => page.deliveries[0]?.status === 'DELIVERED',
    )
    await run('webhooks.get', { id: deliveries[0]!.id })
    await run('webhooks.redeliver', { id: deliveries[0]!.id })
    await run('webhooks.list', {})

    await run('settings.setAiEngine', {
      engine: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'llama3.2',
      apiKey: 'sk-local',
      timeoutMs: 5_000,
    })
    await run('settings.setAiEngine', { engine: 'offline' })
    await run('settings.setSttEngine', {
      engine: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'whisper-1',
      apiKey: 'sk-stt',
      timeoutMs: 5_000,
    })
    // The key left out: kept, and still not returned.
    await run('settings.setSttEngine', { engine: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' })
    await run('settings.get', {})
    // Port 9 answers nothing (and fetch refuses it): the connection test says so, and the stored key stays unsaid.
    const tested = await run('settings.testEngine', { kind: 'stt' })
    expect(tested).toMatchObject({ kind: 'stt', ok: false })
    expect(JSON.stringify(tested)).not.toContain('sk-stt')
    await run('settings.setSttEngine', { engine: 'off' })
    expect(await run('settings.testEngine', { kind: 'stt' })).toMatchObject({ ok: false, outcome: 'notConfigured' })

    // A real /v1 request (through the whole HTTP pipeline), then read from the journal.
    expect((await service.call('GET', '/v1/voices?lang=en')).statusCode).toBe(200)
    const journaled = await run('requests.list', { path: '/v1/voices' })
    expect(journaled.requests).toHaveLength(1)
    await run('requests.get', { id: journaled.requests[0]!.id })
    await run('requests.har', { take: 10 })

    // The Analytics screen's read: a week by day (the project has made no call).
    const week = await run('analytics.summary', { period: 'THIS_WEEK', timeDifference: '-3' })
    expect(week.overview.callsOverTime).toHaveLength(7)
    expect(week.calls.calls).toBe(0)

    // Versions: the agent's history (made and changed above), one read, a restore on top.
    const versions = await run('agents.versions', { id: agent.id, take: 5 })
    expect(versions.versions[0]?.version).toBe(versions.total)
    expect((await run('agents.version', { id: agent.id, version: 1 })).source).toBe('create')
    expect((await run('agents.restoreVersion', { id: agent.id, version: 1 })).id).toBe(agent.id)
    expect((await run('agents.versions', { id: agent.id })).versions[0]?.source).toBe('restore:1')

    // Tests: no suite, a starter, a suite saved, a run started with the operator's ticket, read to its end, listed.
    expect(await run('tests.getSuite', { agentId: agent.id })).toBeNull()
    const starter = await run('tests.starterSuite', { agentId: agent.id })
    await run('tests.putSuite', { agentId: agent.id, suite: starter })
    await run('tests.getSuite', { agentId: agent.id })
    const started = await run('tests.startRun', {
      agentId: agent.id,
      suite: { scenarios: [{ name: 'hello', caller: { say: ['Hello'] }, expect: { endReason: 'caller-hangup' } }] },
    })
    await until(
      'the test run',
      () => run('tests.getRun', { id: started.id }),
      (read) => read.status !== 'RUNNING',
    )
    expect((await run('tests.listRuns', { agentId: agent.id, take: 5 })).runs).toHaveLength(1)

    await run('numbers.delete', { id: number.id })
    await run('agents.delete', { id: clone.id })
    await run('agents.delete', { id: agent.id })

    // State: snapshots of what is left, restored, the links, and a reset.
    await run('state.snapshot', { name: 'outputs-1' })
    expect((await run('state.snapshots', {})).snapshots.map((snapshot) => snapshot.name)).toEqual(['outputs-1'])
    await run('state.restore', { name: 'outputs-1' })
    expect((await run('state.exportLink', { passphrase: 'a passphrase' })).url).toMatch(/\/_voicedesk\/links\/export\/[A-Za-z0-9_-]{32}$/)
    expect((await run('state.importLink', {})).url).toMatch(/\/_voicedesk\/links\/import\/[A-Za-z0-9_-]{32}$/)
    await run('state.deleteSnapshot', { name: 'outputs-1' })
    await run('state.reset', {})
    // This service was made without a SIP line (test/main/desktop-runtime-config.test.ts runs one).
    expect(await run('sip.status', {})).toEqual({ state: 'off' })
    // Its users are kept all the same; nobody is registered, so no softphone can be called.
    const sipUser = await run('sipUsers.add', { name: 'outputs' })
    expect((await run('sipUsers.resetPassword', { name: 'outputs' })).password).not.toBe(sipUser.password)
    expect((await run('sipUsers.list', {})).users).toEqual([expect.objectContaining({ name: 'outputs', registered: false })])
    const ringing = await invokeOperation(handlers, 'calls.callSoftphone', { agentId: agent.id, sipUser: 'outputs' })
    expect(ringing.ok || ringing.error.code).toMatch(/CONFLICT|NOT_FOUND/)
    called.add('calls.callSoftphone')
    await run('sipUsers.remove', { name: 'outputs' })

    const notRun = IPC_OPERATION_NAMES.filter((name) => !called.has(name))
    expect(notRun, 'operations of the contract this test does not run').toEqual([])
  })
})
