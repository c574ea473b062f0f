/**
 * The operator UI's contract over browser mode: a real runtime on a real SQLite file in a
 * temp folder, listening on 127.0.0.1, called with fetch as the renderer calls it. Every
 * operation goes through POST /ipc/<name>; live updates come from GET /ipc/events.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { IpcEvent } from '../../src/shared/ipc/operations'
import { keyHint } from '../../src/service/ops/api-keys'
import { OperatorEventHub } from '../../src/service/operator/operator-events'
import { createSttEngine, readSttSetting, STT_SETTING_KEY, SttSettingSchema } from '../../src/service/settings/stt-settings'
import { makeTempDir } from '../helpers/temp-dir'
import { seedJobs } from '../helpers/seed-jobs'
import { TEST_KEY, sqliteDatabaseOf } from '../helpers/test-service'
import { startWebhookReceiver } from '../helpers/webhook-receiver'
import { startBrowserMode } from './ipc-client'

const AVA = 'fe68337a-10d3-4648-99bb-2bb04554b6cf'
const LAYLA = '16677e49-bcd2-4044-adb3-541626c49304'
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000'

const ended = (jobId: string) => (event: IpcEvent) =>
  event.type === 'job.changed' && event.job.id === jobId && event.job.status !== 'PENDING'

describe('browser mode: who may call', () => {
  it('answers 401 in the /v1 envelope without the UI token, with a wrong one, and with an API key', async () => {
    const { url, ipc } = await startBrowserMode()
    for (const token of [null, 'wrong', TEST_KEY]) {
      const { status, body } = await ipc.post('service.info', {}, token)
      expect(status).toBe(401)
      expect(body).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED', details: [] } })
    }
    for (const query of ['', '?token=wrong']) {
      const response = await fetch(`${url}/ipc/events${query}`)
      expect(response.status).toBe(401)
      expect(await response.json()).toMatchObject({ success: false, error: { code: 'UNAUTHORIZED' } })
    }
  })

  it('answers bad JSON and oversized bodies in the envelope, like /v1', async () => {
    const { url, service } = await startBrowserMode()
    const headers = { authorization: `Bearer ${service.runtime.uiToken}`, 'content-type': 'application/json' }
    const bad = await fetch(`${url}/ipc/agents.create`, { method: 'POST', headers, body: '{"agentName":' })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ success: false, error: { code: 'INVALID_JSON' } })
    const large = await fetch(`${url}/ipc/agents.create`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ agentName: 'x'.repeat(1024 * 1024) }),
    })
    expect(large.status).toBe(413)
    expect(await large.json()).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } })
  })
})

describe('browser mode: every operation', () => {
  it('runs agents, templates, voices and numbers as the app identity in the default project', async () => {
    const { ipc, service } = await startBrowserMode()
    const info = await ipc.ok('service.info')
    expect(info).toMatchObject({
      host: 'browser',
      projectId: service.runtime.appCaller.projectId,
      keyHint: keyHint(TEST_KEY),
      runningJobs: 0,
      pendingJobs: 0,
    })
    expect(info.url).toBe(service.runtime.context.baseUrl())

    expect(await ipc.ok('voices.list')).toHaveLength(14)
    const templates = await ipc.ok('templates.list')
    expect(templates.length).toBeGreaterThanOrEqual(8)

    const agent = await ipc.ok('agents.create', { agentName: 'Front desk', lang: 'en' })
    expect(agent.apiKeyId).toBe(service.runtime.appCaller.apiKeyId)
    expect(await ipc.ok('agents.get', { id: agent.id })).toEqual(agent)
    const updated = await ipc.ok('agents.update', { id: agent.id, changes: { greetingMessage: 'Hi there!' } })
    expect(updated.greetingMessage).toBe('Hi there!')
    const clone = await ipc.ok('agents.clone', { sourceId: templates[0]!.id, agentName: 'From a template' })
    expect(clone.agentName).toBe('From a template')
    const listed = await ipc.ok('agents.list', { lang: 'en' })
    expect(listed.agents.map((entry) => entry.id)).toContain(agent.id)
    // The /v1 key sees what the UI made: one project.
    expect((await service.call('GET', `/v1/voice-agents/${agent.id}`)).statusCode).toBe(200)

    const number = await ipc.ok('numbers.add', {
      type: 'TELEPHONY',
      phoneNumber: '+1 415 555 0123',
      label: 'Front desk line',
      providerAccountSid: 'AC123',
      providerAuthToken: 'provider-token-secret',
    })
    expect(JSON.stringify(number)).not.toContain('provider-token-secret')
    expect((await ipc.ok('numbers.assign', { voiceAgentId: agent.id, phoneNumber: '+14155550123' })).voiceAgentId).toBe(agent.id)
    expect((await ipc.ok('numbers.list', { voiceAgentId: agent.id })).phoneNumbers).toHaveLength(1)
    expect((await ipc.ok('numbers.unassign', { phoneNumber: '+14155550123' })).voiceAgentId).toBeNull()
    expect(await ipc.ok('numbers.delete', { id: number.id })).toEqual({ id: number.id, deleted: true })
    expect(await ipc.ok('agents.delete', { id: agent.id })).toEqual({ id: agent.id, deleted: true })
  })

  it('queues jobs and follows them to their end through events, without polling', async () => {
    const { ipc, events, service } = await startBrowserMode()
    const stream = await events()
    const tts = await ipc.ok('jobs.createTts', { voiceId: AVA, text: 'Your order has shipped and will arrive tomorrow.' })
    const queued = await stream.next((event) => event.type === 'job.changed' && event.job.id === tts.id)
    expect(queued).toMatchObject({ type: 'job.changed', job: { id: tts.id, status: 'PENDING', type: 'TTS' } })
    const done = await stream.next(ended(tts.id))
    expect(done).toMatchObject({ job: { status: 'COMPLETED' }, runningJobs: 0, pendingJobs: 0 })
    // Queued, started and ended, in that order.
    const mine = stream.events.filter((event) => event.type === 'job.changed' && event.job.id === tts.id)
    expect(mine.map((event) => event.type === 'job.changed' && [event.job.status, event.runningJobs])).toEqual([
      ['PENDING', 0],
      ['PENDING', 1],
      ['COMPLETED', 0],
    ])

    const read = await ipc.ok('jobs.get', { id: tts.id })
    expect(read.job.status).toBe('COMPLETED')
    expect(read.previewUrl).toMatch(/\/preview\//)
    const list = await ipc.ok('jobs.list', { take: 5, sort: { field: 'createdAt', direction: 'DESC' } })
    expect(list.jobs.map((job) => job.id)).toEqual([tts.id])

    const ai = await ipc.ok('jobs.createAiContent', { sourceJobId: tts.id, aiParts: ['summary', 'keywords'] })
    await stream.next(ended(ai.id))
    const content = await ipc.ok('jobs.getAiContent', { id: tts.id })
    expect(content.id).toBe(ai.id)
    expect(content.status).toBe('COMPLETED')
    expect(Object.keys(content.jobResponse ?? {})).toEqual(expect.arrayContaining(['summary', 'keywords', 'transcriptionJobId']))

    // A job queued over /v1 is seen too.
    const viaV1 = await service.call('POST', '/v1/jobs/text-to-speech', { body: { voiceId: LAYLA, text: 'مرحباً بكم' } })
    expect(viaV1.statusCode).toBe(200)
    await stream.next(ended(viaV1.json().data.id as string))
  })

  it('journals webhook attempts as delivery.attempted events, and sends a delivery again', async () => {
    const { ipc, events } = await startBrowserMode()
    const receiver = await startWebhookReceiver()
    receiver.answer((index) => ({ status: index === 0 ? 503 : 204 }))
    const stream = await events()
    const job = await ipc.ok('jobs.createTts', { voiceId: AVA, text: 'Webhook please.', webhookUrl: `${receiver.url}/hook` })
    const first = await stream.next((event) => event.type === 'delivery.attempted' && event.delivery.jobId === job.id)
    expect(first).toMatchObject({ delivery: { status: 'PENDING', attempts: 1, lastStatusCode: 503 } })

    const { deliveries } = await ipc.ok('webhooks.list', { jobId: job.id })
    expect(deliveries).toHaveLength(1)
    const id = deliveries[0]!.id
    expect((await ipc.ok('webhooks.get', { id })).attemptLog[0]).toMatchObject({ attempt: 1, statusCode: 503 })
    // Sent again now, rather than on the retry schedule.
    await ipc.ok('webhooks.redeliver', { id })
    const delivered = await stream.next((event) => event.type === 'delivery.attempted' && event.delivery.status === 'DELIVERED')
    expect(delivered).toMatchObject({ delivery: { id, lastStatusCode: 204 } })
  })

  it('synthesizes voice samples with the warm engine, and caches them', async () => {
    const { ipc } = await startBrowserMode()
    const sample = await ipc.ok('voices.sample', { voiceId: LAYLA })
    expect(sample.voiceId).toBe(LAYLA)
    expect(sample.audioDataUrl).toMatch(/^data:audio\/wav;base64,UklGR/) // "RIFF"
    expect(sample.durationSeconds).toBeGreaterThan(0.5)
    expect(await ipc.ok('voices.sample', { voiceId: LAYLA })).toEqual(sample)
    const custom = await ipc.ok('voices.sample', { voiceId: AVA, text: 'Short.' })
    expect(custom.durationSeconds).toBeLessThan(sample.durationSeconds)
    const unknown = await ipc.call('voices.sample', { voiceId: UNKNOWN_ID })
    expect(unknown).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it('manages API keys; the app key is marked and cannot be revoked', async () => {
    const { ipc, service } = await startBrowserMode()
    const keys = await ipc.ok('keys.list')
    const appKey = keys.find((key) => key.usedByApp)
    expect(appKey).toMatchObject({ id: service.runtime.appCaller.apiKeyId, name: 'VoiceDesk app', revokedAt: null })
    expect(keys.filter((key) => key.usedByApp)).toHaveLength(1)

    const created = await ipc.ok('keys.create', { name: 'Zapier' })
    expect(created.info).toMatchObject({ name: 'Zapier', usedByApp: false, keyHint: keyHint(created.key) })
    expect((await service.call('GET', '/v1/voices', { key: created.key })).statusCode).toBe(200)
    const revoked = await ipc.ok('keys.revoke', { id: created.info.id })
    expect(revoked.revokedAt).not.toBeNull()
    expect((await service.call('GET', '/v1/voices', { key: created.key })).statusCode).toBe(401)

    expect(await ipc.call('keys.revoke', { id: appKey!.id })).toMatchObject({ ok: false, error: { code: 'CONFLICT' } })
    expect(await ipc.call('keys.revoke', { id: UNKNOWN_ID })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    // Another project's key is unknown here.
    const other = await service.otherProject()
    const otherKeyId = (await service.runtime.store.accounts.listKeys(other.projectId))[0]!.id
    expect(await ipc.call('keys.revoke', { id: otherKeyId })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it('reads and sets the AI engine; the key is never returned and the next job uses the new engine', async () => {
    const { ipc, service } = await startBrowserMode({ jobs: { concurrency: 0 } })
    expect(await ipc.ok('settings.get')).toEqual({
      port: Number(new URL(service.runtime.context.baseUrl()).port),
      dataDir: service.dataDir,
      aiContent: { engine: 'offline' },
      speechRecognition: { engine: 'off' },
      webhookSigning: false,
      tts: { engine: 'espeak-ng' },
      cors: { origins: ['http://localhost:*', 'http://127.0.0.1:*', 'http://[::1]:*'], source: 'default' },
    })
    const result = await ipc.call('settings.setAiEngine', {
      engine: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'llama3.2',
      apiKey: 'sk-local-secret',
    })
    expect(JSON.stringify(result)).not.toContain('sk-local-secret')
    expect(result).toMatchObject({
      ok: true,
      data: { aiContent: { engine: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'llama3.2', hasApiKey: true } },
    })
    // Changing the model keeps the stored key.
    const kept = await ipc.ok('settings.setAiEngine', { engine: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: 'qwen2.5' })
    expect(kept.aiContent).toMatchObject({ model: 'qwen2.5', hasApiKey: true })

    // The job queue is paused (concurrency 0), so the source job is written as done directly.
    const source = await ipc.ok('jobs.createTts', { voiceId: AVA, text: 'A finished text.' })
    sqliteDatabaseOf(service.runtime).prepare("UPDATE jobs SET status = 'COMPLETED' WHERE id = ?").run(source.id)
    const ai = await ipc.ok('jobs.createAiContent', { sourceJobId: source.id, aiParts: ['summary'] })
    expect(ai.model).toBe('qwen2.5')
    expect(await ipc.ok('settings.setAiEngine', { engine: 'offline' })).toMatchObject({ aiContent: { engine: 'offline' } })
  })

  it('reads and sets speech recognition; the key is kept when left out, never returned, and the next call uses it', async () => {
    const { ipc, service } = await startBrowserMode()
    const { store, secrets } = service.runtime.context
    expect((await ipc.ok('settings.get')).speechRecognition).toEqual({ engine: 'off' })
    const result = await ipc.call('settings.setSttEngine', {
      engine: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      apiKey: 'sk-stt-secret',
    })
    expect(JSON.stringify(result)).not.toContain('sk-stt-secret')
    expect(result).toMatchObject({
      ok: true,
      data: { speechRecognition: { engine: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', hasApiKey: true } },
    })
    // Stored sealed, not as given.
    expect(JSON.stringify(await store.settings.get(STT_SETTING_KEY, SttSettingSchema))).not.toContain('sk-stt-secret')
    // Choosing a model without the key keeps the stored key, which the engine of the next call sends.
    const kept = await ipc.ok('settings.setSttEngine', {
      engine: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'whisper-large-v3',
      timeoutMs: 5_000,
    })
    expect(kept.speechRecognition).toEqual({
      engine: 'openai-compatible',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'whisper-large-v3',
      hasApiKey: true,
      timeoutMs: 5_000,
    })
    expect(await ipc.ok('settings.get')).toEqual(kept)
    const setting = await readSttSetting(store)
    expect(setting.engine === 'openai-compatible' && setting.apiKeySealed && secrets.decrypt(setting.apiKeySealed)).toBe('sk-stt-secret')
    expect((await createSttEngine(store, secrets))?.model).toBe('whisper-large-v3')
    // Off forgets the key: choosing a server again has none.
    expect((await ipc.ok('settings.setSttEngine', { engine: 'off' })).speechRecognition).toEqual({ engine: 'off' })
    expect(await createSttEngine(store, secrets)).toBeUndefined()
    const again = await ipc.ok('settings.setSttEngine', { engine: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1' })
    expect(again.speechRecognition).toEqual({ engine: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', hasApiKey: false })
    // The AI engine is its own setting.
    expect(again.aiContent).toEqual({ engine: 'offline' })
  })
})

describe("browser mode: the monitor's date range", () => {
  it('lists the jobs created in a range of instants (any offset), counts them, and refuses a range that ends before it starts', async () => {
    const { ipc, service } = await startBrowserMode()
    const created = ['2026-03-09T20:59:59.999Z', '2026-03-09T21:00:00.000Z', '2026-03-10T20:59:59.999Z', '2026-03-10T21:00:00.000Z']
    await seedJobs(service.runtime, created.length, (index) => ({
      title: `job ${index}`,
      createdAt: created[index],
      updatedAt: created[index],
    }))
    // 10 March in Riyadh (UTC+3), as the UI sends a local day: its start and the next day's start.
    const riyadhDay = { createdFrom: '2026-03-10T00:00:00.000+03:00', createdTo: '2026-03-11T00:00:00.000+03:00' }
    const day = await ipc.ok('jobs.list', { ...riyadhDay, sort: { field: 'createdAt', direction: 'asc' } })
    expect([day.jobs.map((job) => job.title), day.filtered, day.total]).toEqual([['job 1', 'job 2'], 2, 4])
    const since = await ipc.ok('jobs.list', { createdFrom: '2026-03-09T21:00:00Z', search: 'job' })
    expect(since.filtered).toBe(3)

    const backwards = await ipc.call('jobs.list', { createdFrom: riyadhDay.createdTo, createdTo: riyadhDay.createdFrom })
    expect(backwards).toMatchObject({
      ok: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(/createdTo: The end of the date range is before its start/),
        details: [{ path: 'createdTo' }],
      },
    })
    expect(await ipc.call('jobs.list', { createdFrom: '10/03/2026' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'createdFrom', message: expect.stringMatching(/ISO 8601/) }] },
    })
    // /v1's list body is the cloud's contract: it has no date range.
    const v1 = await service.call('POST', `/v1/jobs/all?projectId=${service.runtime.appCaller.projectId}`, {
      body: { createdFrom: riyadhDay.createdFrom },
    })
    expect(v1.statusCode).toBe(400)
    expect(v1.json()).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'body.createdFrom', message: 'Unknown field "createdFrom"' }] },
    })
  })
})

describe('browser mode: refusals', () => {
  it('answers VALIDATION_ERROR with paths relative to the input', async () => {
    const { ipc } = await startBrowserMode()
    const agent = await ipc.ok('agents.create', { agentName: 'Paths' })
    expect(await ipc.call('agents.update', { id: agent.id, changes: { lang: 'xx' as 'en' } })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'changes.lang' }] },
    })
    expect(await ipc.call('agents.create', { agentName: '' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'agentName' }] },
    })
    const unknownField = await ipc.call('agents.create', { agentName: 'x', bogus: 1 } as never)
    expect(unknownField).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'bogus', message: 'Unknown field "bogus"' }] },
    })
    // A refusal by the use case (not the schema): its path is relative to its input, as it is (/v1 adds `body.`).
    const impossible = await ipc.call('numbers.add', {
      type: 'TELEPHONY',
      phoneNumber: '+999',
      label: 'x',
      providerAccountSid: 'AC1',
      providerAuthToken: 't',
    })
    expect(impossible).toMatchObject({ ok: false, error: { code: 'VALIDATION_ERROR', details: [{ path: 'phoneNumber' }] } })
    expect(await ipc.call('settings.setAiEngine', { engine: 'openai-compatible', baseUrl: 'ftp://x', model: 'm' })).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'baseUrl' }] },
    })
  })

  it('refuses speech recognition it could not use, each detail at its field', async () => {
    const { ipc } = await startBrowserMode()
    for (const [input, path] of [
      [{ engine: 'openai-compatible', baseUrl: 'ftp://x' }, 'baseUrl'],
      [{ engine: 'openai-compatible', baseUrl: 'not a url' }, 'baseUrl'],
      [{ engine: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', model: '' }, 'model'],
      [{ engine: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', apiKey: '' }, 'apiKey'],
      [{ engine: 'openai-compatible', baseUrl: 'http://127.0.0.1:9/v1', timeoutMs: 10 }, 'timeoutMs'],
      [{ engine: 'off', baseUrl: 'http://127.0.0.1:9/v1' }, 'baseUrl'],
      [{ engine: 'whisper' }, 'engine'],
    ] as const) {
      expect(await ipc.call('settings.setSttEngine', input as never), JSON.stringify(input)).toMatchObject({
        ok: false,
        error: { code: 'VALIDATION_ERROR', details: [{ path }] },
      })
    }
    expect((await ipc.ok('settings.get')).speechRecognition).toEqual({ engine: 'off' })
  })

  it('answers NOT_FOUND for an unknown operation and for unknown ids', async () => {
    const { ipc } = await startBrowserMode()
    const { status, body } = await ipc.post('agents.nope', {})
    expect(status).toBe(200)
    expect(body).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    expect((await ipc.post('__proto__', {})).body).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    for (const name of ['agents.get', 'agents.delete', 'numbers.delete', 'jobs.get', 'jobs.getAiContent'] as const) {
      expect(await ipc.call(name, { id: UNKNOWN_ID }), name).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
    }
    expect(await ipc.call('webhooks.get', { id: `msg_${'0'.repeat(32)}` })).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })
})

describe('browser mode: events and the page', () => {
  it('keeps the runner going when a listener throws', async () => {
    const { ipc, events, service } = await startBrowserMode()
    service.runtime.events.subscribe(() => {
      throw new Error('a broken listener')
    })
    const stream = await events()
    const job = await ipc.ok('jobs.createTts', { voiceId: AVA, text: 'Still here.' })
    expect(await stream.next(ended(job.id))).toMatchObject({ job: { status: 'COMPLETED' } })
  })

  it('ends open event streams when the service stops, and removes their listeners', async () => {
    const { events, service } = await startBrowserMode()
    const stream = await events()
    expect(service.runtime.events.listening).toBe(true)
    await service.runtime.stop()
    await stream.ended
    expect(service.runtime.events.listening).toBe(false)
  })

  it('writes nothing to an event stream it ended, when an event comes before the connection closed', async () => {
    const { service, url } = await startBrowserMode()
    // Events still come while the service closes (the journal announces its last batch then):
    // one between the stream's end and its connection's close was written after the end, an
    // error event nobody handled, which stopped the process. A client that has stopped reading
    // (a large event fills its buffers) keeps that window open.
    const port = new URL(url).port
    const client = connect({ port: Number(port), host: '127.0.0.1' })
    client.write(`GET /ipc/events?token=${service.runtime.uiToken} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`)
    const head = await new Promise<string>((resolve) => client.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))))
    expect(head).toMatch(/^HTTP\/1\.1 200/)
    client.pause()
    const hub = service.runtime.events
    expect(hub).toBeInstanceOf(OperatorEventHub)
    const emit = (event: IpcEvent) => (hub as OperatorEventHub).emit(() => event)
    const uncaught: unknown[] = []
    const onUncaught = (error: unknown) => uncaught.push(error)
    process.on('uncaughtException', onUncaught)
    try {
      const big = { type: 'requests.written', padding: 'x'.repeat(32 * 1024 * 1024) } as unknown as IpcEvent
      emit(big)
      // Events keep coming, one a turn of the event loop, until the service has closed.
      let closed = false
      const closing = service.runtime.app.close().then(() => (closed = true))
      const keepEmitting = () => {
        emit({ type: 'requests.written' })
        if (!closed) setImmediate(keepEmitting)
      }
      keepEmitting()
      await new Promise((resolve) => setTimeout(resolve, 100))
      client.destroy()
      await closing
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(uncaught).toEqual([])
      expect(service.runtime.events.listening).toBe(false)
    } finally {
      process.off('uncaughtException', onUncaught)
    }
  })

  it('removes the listener when the client goes away', async () => {
    const { events, service } = await startBrowserMode()
    const stream = await events()
    expect(service.runtime.events.listening).toBe(true)
    stream.close()
    await expect.poll(() => service.runtime.events.listening).toBe(false)
  })

  it('serves the built renderer at /app/, and says so when there is none', async () => {
    const rendererDir = makeTempDir('voicedesk-renderer')
    mkdirSync(join(rendererDir, 'assets'))
    writeFileSync(
      join(rendererDir, 'index.html'),
      '<!doctype html><meta http-equiv="Content-Security-Policy" content="script-src \'self\'"><script type="module" src="./assets/index-abc.js"></script>',
    )
    writeFileSync(join(rendererDir, 'assets', 'index-abc.js'), 'console.log("ui")')
    const { url } = await startBrowserMode({ rendererDir })
    const redirect = await fetch(`${url}/app`, { redirect: 'manual' })
    expect(redirect.status).toBe(301)
    expect(redirect.headers.get('location')).toBe('/app/')
    const page = await fetch(`${url}/app/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    expect(page.headers.get('cache-control')).toBe('no-store')
    expect(await page.text()).toContain('./assets/index-abc.js')
    const script = await fetch(`${url}/app/assets/index-abc.js`)
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toMatch(/javascript/)

    const bare = await startBrowserMode()
    const missing = await fetch(`${bare.url}/app/`)
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } })
  })
})
