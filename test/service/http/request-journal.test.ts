/**
 * The request journal over a real service on 127.0.0.1 (SQLite, and PostgreSQL in the
 * `postgres` project: the journal is its own SQLite file in both): entries for JSON, upload
 * and WebSocket routes, redaction down to the file's bytes, filters and pagination, curl
 * commands run by a shell, HAR, retention, a restart, and the read caches left alone.
 */
import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'
import Ajv from 'ajv'
import BetterSqlite3 from 'better-sqlite3'
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { openRequestJournalStore } from '../../../src/store/open-store'
import { RequestJournal } from '../../../src/service/request-journal/request-journal'
import { keyHint } from '../../../src/service/ops/api-keys'
import { VOICES } from '../../../src/shared/voices'
import { makeTempDir } from '../../helpers/temp-dir'
import { startTestService, TEST_KEY, type TestService } from '../../helpers/test-service'
import { onPostgres } from '../../helpers/test-engine'
import type { RuntimeConfig } from '../../../src/service/runtime'
import type { HarEntry } from '../../../src/service/request-journal/har'
import type { CurlCommand } from '../../../src/service/request-journal/curl-command'
import type { JournalEntry } from '../../../src/store/request-journal'

/** GET /_voicedesk/requests/{id}: the entry without its project, and its curl command. */
type Detail = Omit<JournalEntry, 'projectId'> & { curl: CurlCommand }

const run = promisify(execFile)
const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id
const WEBHOOK_SECRET = 'whk-auth-secret-7f3a9c1e5b'

interface Listening {
  service: TestService
  baseUrl: string
  journalFile: string
  request: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; json: Record<string, unknown> }>
  journal: (
    query?: string,
  ) => Promise<{ status: number; json: { data: { requests: Summary[]; next: number | null; dropped: number } } & Record<string, unknown> }>
}

interface Summary {
  id: number
  kind: string
  startedAt: string
  method: string
  path: string
  query: string
  status: number
  latencyMs: number
  keyHint: string | null
  resourceId: string | null
}

async function listening(config: Partial<RuntimeConfig> = {}, dataDir = makeTempDir()): Promise<Listening> {
  // The journal's file named here, so the test can read its bytes in team mode too (its default there is in the temp folder).
  const journalFile = join(dataDir, 'journal.db')
  const service = await startTestService({ port: 0, dataDir, ...config, journal: { file: journalFile, ...config.journal } })
  await service.runtime.start()
  const baseUrl = service.runtime.context.baseUrl()
  const request = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Token ${service.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    return { status: response.status, json: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown> }
  }
  const journal = async (query = '') => (await request('GET', `/_voicedesk/requests${query}`)) as Awaited<ReturnType<Listening['journal']>>
  return { service, baseUrl, journalFile, request, journal }
}

function openSocket(url: string, headers: Record<string, string> = {}) {
  const socket = new WebSocket(url, { headers })
  const frames: string[] = []
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)))
  const opened = new Promise<void>((resolve, reject) => {
    socket.on('open', () => resolve())
    socket.on('error', reject)
  })
  socket.on('message', (data: Buffer) => frames.push(data.toString('utf8')))
  return { socket, frames, closed, opened }
}

/** Polls until the journal lists what `ready` waits for: a session's entry is written when it closes, after the client saw the close. */
async function until<T>(read: () => Promise<T>, ready: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const value = await read()
    if (ready(value) || Date.now() > deadline) return value
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('the request journal', () => {
  it('times a request from when it was routed to its last byte, and dates it when it came', async () => {
    const { request, journal } = await listening()
    expect((await request('POST', '/_voicedesk/faults', { match: { method: 'get', path: '/v1/voices' }, delayMs: 300 })).status).toBe(201)
    const sentAt = Date.now()
    expect((await request('GET', '/v1/voices')).status).toBe(200)
    const answeredAt = Date.now()
    const [slowed] = (await journal()).json.data.requests
    expect(slowed).toMatchObject({ path: '/v1/voices', status: 200 })
    expect(slowed!.latencyMs).toBeGreaterThanOrEqual(295)
    expect(slowed!.latencyMs).toBeLessThanOrEqual(answeredAt - sentAt + 1)
    const startedAt = Date.parse(slowed!.startedAt)
    expect(startedAt).toBeGreaterThanOrEqual(sentAt - 1)
    expect(startedAt + slowed!.latencyMs).toBeLessThanOrEqual(answeredAt + 1)
  })

  it('journals 20 requests answered at once each once, each with its own start, answer and latency', async () => {
    const { request, journal } = await listening()
    expect((await request('POST', '/_voicedesk/faults', { match: { method: 'get', path: '/v1/voices' }, delayMs: 200 })).status).toBe(201)
    const sentAt = Date.now()
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        index % 2 === 0
          ? request('GET', `/v1/voices?n=${index}`)
          : request('GET', `/v1/voice-agents/9d6a1707-b717-4e39-b6d2-4bfd68aee57d?n=${index}`),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? 200 : 404)))
    const listed = (await journal('?take=50')).json.data.requests.filter((entry) => entry.path !== '/_voicedesk/faults')
    expect(listed).toHaveLength(20)
    for (let index = 0; index < 20; index += 1) {
      const entry = listed.find((one) => one.query === `n=${index}`)
      expect(entry, `request ${index}`).toMatchObject({ status: index % 2 === 0 ? 200 : 404 })
      if (index % 2 === 0) expect(entry!.latencyMs).toBeGreaterThanOrEqual(195)
      expect(Date.parse(entry!.startedAt)).toBeGreaterThanOrEqual(sentAt - 1)
    }
  })

  it('journals a JSON request with its bodies, the key hint and the job it made; secrets redacted', async () => {
    const { request, journal, service } = await listening()
    const created = await request('POST', '/v1/jobs/text-to-speech', {
      voiceId: AVA,
      text: 'Hello there.',
      webhookUrl: 'http://127.0.0.1:9/hook',
      webhookAuth: { authKey: 'Bearer', authSecret: WEBHOOK_SECRET },
    })
    expect(created.status).toBe(200)
    const jobId = (created.json.data as { id: string }).id
    expect((await request('GET', `/v1/jobs?jobId=${jobId}`)).status).toBe(200)

    const listed = await journal()
    expect(listed.status).toBe(200)
    const [read, made] = listed.json.data.requests
    expect(read).toMatchObject({
      kind: 'http',
      method: 'GET',
      path: '/v1/jobs',
      query: `jobId=${jobId}`,
      status: 200,
      resourceId: jobId,
      keyHint: keyHint(TEST_KEY),
    })
    expect(made).toMatchObject({ kind: 'http', method: 'POST', path: '/v1/jobs/text-to-speech', status: 200, resourceId: jobId })
    expect(made!.latencyMs).toBeGreaterThan(0)

    const detail = (await request('GET', `/_voicedesk/requests/${made!.id}`)).json.data as Detail
    expect(detail.requestHeaders).toContainEqual(['authorization', '[REDACTED]'])
    const sent = JSON.parse(detail.requestBody!.text as string)
    expect(sent).toEqual({
      voiceId: AVA,
      text: 'Hello there.',
      webhookUrl: 'http://127.0.0.1:9/hook',
      webhookAuth: { authKey: 'Bearer', authSecret: '[REDACTED]' },
    })
    expect(detail.requestBody).toMatchObject({ contentType: 'application/json', truncated: false })
    expect(JSON.parse(detail.responseBody!.text as string)).toMatchObject({ success: true, data: { id: jobId } })
    expect(detail.responseBody!.contentType).toMatch(/^application\/json/)
    expect(detail.curl.command).toContain('"Authorization: Token $VOICEDESK_KEY"')
    expect(JSON.stringify(detail)).not.toContain(TEST_KEY)

    // The GET of an agent answers prepared bytes (a Buffer from its cache): the journal keeps their text too.
    const agent = await request('POST', '/v1/voice-agents', { agentName: 'Journaled agent' })
    const agentId = (agent.json.data as { id: string }).id
    const agentAnswer = await fetch(`${service.runtime.context.baseUrl()}/v1/voice-agents/${agentId}`, {
      headers: { authorization: `Token ${TEST_KEY}` },
    })
    const answered = await agentAnswer.text()
    const [got] = (await journal('?method=GET&path=/v1/voice-agents/')).json.data.requests
    expect(got).toMatchObject({ path: `/v1/voice-agents/${agentId}`, status: 200 })
    const gotDetail = (await request('GET', `/_voicedesk/requests/${got!.id}`)).json.data as Detail
    expect(gotDetail.responseBody).toEqual({
      contentType: 'application/json; charset=utf-8',
      size: Buffer.byteLength(answered),
      text: answered,
      truncated: false,
    })
    expect(gotDetail.responseHeaders).toContainEqual(['content-length', String(Buffer.byteLength(answered))])
    expect(JSON.stringify(detail)).not.toContain(WEBHOOK_SECRET)
    expect(detail).not.toHaveProperty('projectId')
  })

  it('journals an upload by its fields and file name and size, never its bytes', async () => {
    const { service, baseUrl, journal, request } = await listening()
    const form = new FormData()
    form.append('model', 'General-V2.0')
    form.append('processingType', 'async')
    form.append('webhookUrl', 'http://127.0.0.1:9/hook')
    form.append('webhookAuth', JSON.stringify({ authKey: 'Bearer', authSecret: WEBHOOK_SECRET }))
    const audio = Buffer.alloc(3000, 0x5a)
    form.append('file', new Blob([audio], { type: 'audio/wav' }), 'greeting.wav')
    const response = await fetch(`${baseUrl}/v1/jobs/transcribe`, {
      method: 'POST',
      headers: { authorization: `Token ${service.key}` },
      body: form,
    })
    expect(response.status, await response.clone().text()).toBe(200)
    const jobId = ((await response.json()) as { data: { id: string } }).data.id

    const [entry] = (await journal()).json.data.requests
    expect(entry).toMatchObject({ method: 'POST', path: '/v1/jobs/transcribe', status: 200, resourceId: jobId })
    const detail = (await request('GET', `/_voicedesk/requests/${entry!.id}`)).json.data as Detail
    expect(detail.requestBody!.contentType).toMatch(/^multipart\/form-data; boundary=/)
    expect(JSON.parse(detail.requestBody!.text as string)).toEqual({
      fields: {
        model: 'General-V2.0',
        processingType: 'async',
        webhookUrl: 'http://127.0.0.1:9/hook',
        webhookAuth: JSON.stringify({ authKey: 'Bearer', authSecret: '[REDACTED]' }),
      },
      file: { filename: 'greeting.wav', size: 3000, mimetype: 'audio/wav' },
    })
    expect(detail.requestBody!.size).toBeGreaterThan(3000)
    expect(detail.curl.command).toContain(`-F 'file=@greeting.wav;type=audio/wav'`)
  })

  it('journals a WebSocket session: open, close code and frame counts, under the caller’s project, the key redacted from the URL', async () => {
    const { baseUrl, journal } = await listening()
    const ws = openSocket(`${baseUrl.replace(/^http/, 'ws')}/v1/realtime/ws?api_key=${TEST_KEY}`)
    await ws.opened
    ws.socket.send('not json')
    ws.socket.send('nor this')
    await until(
      async () => ws.frames.length,
      (count) => count === 2,
    )
    ws.socket.close(1000)
    expect(await ws.closed).toBe(1000)
    const jobId = randomUUID()
    const call = openSocket(`${baseUrl.replace(/^http/, 'ws')}/stream/${jobId}?api_key=${TEST_KEY}`)
    await call.closed
    // Closed by the client the moment it opens: the key was checked before the upgrade, so the session still has its project.
    const hastyJobId = randomUUID()
    const hasty = openSocket(`${baseUrl.replace(/^http/, 'ws')}/stream/${hastyJobId}?api_key=${TEST_KEY}`)
    await hasty.opened
    hasty.socket.close(1000)
    await hasty.closed

    const listed = await until(
      () => journal(),
      (answer) => answer.json.data.requests.length === 3,
    )
    const [hastyStream, stream, realtime] = listed.json.data.requests
    expect(hastyStream).toMatchObject({ kind: 'websocket', path: `/stream/${hastyJobId}`, keyHint: keyHint(TEST_KEY) })
    expect(realtime).toMatchObject({
      kind: 'websocket',
      method: 'GET',
      path: '/v1/realtime/ws',
      query: 'api_key=%5BREDACTED%5D',
      status: 101,
      keyHint: keyHint(TEST_KEY),
    })
    expect(stream).toMatchObject({ kind: 'websocket', path: `/stream/${jobId}`, resourceId: jobId })
    const detail = (await (
      await fetch(`${baseUrl}/_voicedesk/requests/${realtime!.id}`, { headers: { authorization: `Token ${TEST_KEY}` } })
    ).json()) as { data: Detail }
    expect(detail.data.socket).toMatchObject({ closeCode: 1000, framesIn: 2, framesOut: 2 })
    expect(Date.parse(detail.data.socket!.closedAt!)).toBeGreaterThanOrEqual(Date.parse(detail.data.startedAt))
    expect(detail.data.curl).toMatchObject({ command: null })
  })

  it('keeps the key, api_key and webhook secrets out of the journal file, byte for byte', async () => {
    const { service, baseUrl, journalFile, request } = await listening()
    await request('POST', '/v1/jobs/text-to-speech', {
      voiceId: AVA,
      text: 'Hi.',
      webhookUrl: 'http://127.0.0.1:9/h',
      webhookAuth: { authSecret: WEBHOOK_SECRET },
    })
    await request('GET', `/v1/voices?api_key=${TEST_KEY}`)
    await request('GET', '/v1/voices', undefined, { 'x-api-key': TEST_KEY })
    await request('POST', '/v1/voice-agents/phone-number', {
      phoneNumber: '+14155550100',
      provider: 'twilio',
      providerAuthToken: 'twilio-token-d41d8cd98f',
      providerSid: 'AC123',
    })
    await request('GET', '/v1/voices', undefined, { authorization: 'Token vd_wrong_key_0123456789abcdefghij' })
    const ws = openSocket(`${baseUrl.replace(/^http/, 'ws')}/v1/realtime/ws?api_key=${TEST_KEY}`)
    await ws.opened
    ws.socket.close(1000)
    await ws.closed
    await until(
      () => request('GET', '/_voicedesk/requests?path=/v1/realtime/ws'),
      (answer) => (answer.json.data as { requests: unknown[] }).requests.length === 1,
    )
    await service.runtime.stop()
    const bytes = Buffer.concat([journalFile, `${journalFile}-wal`].filter((file) => existsSync(file)).map((file) => readFileSync(file)))
    expect(bytes.length).toBeGreaterThan(0)
    expect(bytes.includes('/v1/voice-agents/phone-number')).toBe(true) // the file does hold the entries
    for (const secret of [TEST_KEY, WEBHOOK_SECRET, 'twilio-token-d41d8cd98f', 'vd_wrong_key_0123456789abcdefghij'])
      expect(bytes.includes(secret), secret).toBe(false)
  })

  it('redacts secrets inside URLs in bodies (a webhookUrl’s ?token=, a signed URL, a password), in the entry, its curl, the HAR and the file', async () => {
    const { service, baseUrl, journalFile, request } = await listening()
    const secrets = ['url-token-5d41402abc', 'url-sig-7215ee9c7d', 'url-fragment-6f8db599', 'url-password-b6d767d2', 'url-key-e4da3b7fbb']
    const webhookUrl = `http://127.0.0.1:9/calls?tenant=7&token=${secrets[0]}`
    const agent = await request('POST', '/v1/voice-agents', { agentName: 'Hooked', webhookUrl })
    expect(agent.status, JSON.stringify(agent.json)).toBe(200)
    expect((agent.json.data as { webhookUrl: string }).webhookUrl).toBe(webhookUrl) // the service itself keeps the URL whole
    const tts = await request('POST', '/v1/jobs/text-to-speech', {
      voiceId: AVA,
      text: 'Hi.',
      webhookUrl: `https://hooks.example.com/in?X-Amz-Signature=${secrets[1]}&v=2#access_token=${secrets[2]}`,
    })
    expect(tts.status).toBe(200)
    const form = new FormData()
    form.append('model', 'General-V2.0')
    form.append('processingType', 'async')
    form.append('webhookUrl', `http://127.0.0.1:9/t?key=${secrets[4]}`)
    form.append('file', new Blob([Buffer.alloc(2000, 1)], { type: 'audio/wav' }), 'clip.wav')
    expect(
      (await fetch(`${baseUrl}/v1/jobs/transcribe`, { method: 'POST', headers: { authorization: `Token ${TEST_KEY}` }, body: form }))
        .status,
    ).toBe(200)
    const fetched = await request('POST', '/v1/jobs/transcribe', {
      mediaUrl: `http://listener:${secrets[3]}@127.0.0.1:9/a.mp3`,
      model: 'General-V2.0',
      processingType: 'async',
    })
    expect(fetched.status).toBe(200)

    const listed = (await request('GET', '/_voicedesk/requests?method=POST')).json.data as { requests: Summary[] }
    expect(listed.requests).toHaveLength(4)
    const details = await Promise.all(
      listed.requests.map(async (entry) => (await request('GET', `/_voicedesk/requests/${entry.id}`)).json.data as Detail),
    )
    const agentEntry = details.find((detail) => detail.path === '/v1/voice-agents')!
    expect(JSON.parse(agentEntry.requestBody!.text as string)).toEqual({
      agentName: 'Hooked',
      webhookUrl: 'http://127.0.0.1:9/calls?tenant=7&token=%5BREDACTED%5D',
    })
    expect(JSON.parse(agentEntry.responseBody!.text as string).data.webhookUrl).toBe(
      'http://127.0.0.1:9/calls?tenant=7&token=%5BREDACTED%5D',
    )
    const ttsEntry = details.find((detail) => detail.path === '/v1/jobs/text-to-speech')!
    expect(JSON.parse(ttsEntry.requestBody!.text as string).webhookUrl).toBe(
      'https://hooks.example.com/in?X-Amz-Signature=%5BREDACTED%5D&v=2#access_token=%5BREDACTED%5D',
    )
    const fetchedEntry = details.find((detail) => detail.requestBody?.text?.includes('mediaUrl'))!
    expect(JSON.parse(fetchedEntry.requestBody!.text as string).mediaUrl).toBe('http://listener:[REDACTED]@127.0.0.1:9/a.mp3')
    const uploadEntry = details.find((detail) => detail.requestBody?.text?.includes('clip.wav'))!
    expect(uploadEntry.requestBody!.text).toContain('http://127.0.0.1:9/t?key=%5BREDACTED%5D')

    const har = await (await fetch(`${baseUrl}/_voicedesk/requests.har`, { headers: { authorization: `Token ${TEST_KEY}` } })).text()
    expect(har).toContain('token=%5BREDACTED%5D')
    for (const text of [JSON.stringify(details), har]) for (const secret of secrets) expect(text.includes(secret), secret).toBe(false)
    await service.runtime.stop()
    const bytes = Buffer.concat([journalFile, `${journalFile}-wal`].filter((file) => existsSync(file)).map((file) => readFileSync(file)))
    expect(bytes.includes('/v1/voice-agents')).toBe(true)
    for (const secret of secrets) expect(bytes.includes(secret), secret).toBe(false)
  })

  it('filters by method, path prefix, status class and time, pages by a cursor, and shows a project only its own', async () => {
    const { request, journal, service } = await listening()
    const startedAt = new Date().toISOString()
    await request('GET', '/v1/voices')
    await request('GET', '/v1/voice-agents/templates')
    await request('POST', '/v1/voice-agents', { nope: true })
    await request('GET', `/v1/voice-agents/${randomUUID()}`)
    await request('GET', '/v1/jobs?jobId=nope')
    await request('GET', '/v1/voices', undefined, { authorization: 'Token vd_unknown_key_0123456789abcdef' })
    const all = (await journal()).json.data.requests
    expect(all.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      'GET /v1/jobs 404',
      `GET ${all[1]!.path} 404`,
      'POST /v1/voice-agents 400',
      'GET /v1/voice-agents/templates 200',
      'GET /v1/voices 200',
    ]) // the 401 belongs to no project: shown to no one

    expect((await journal('?method=post')).json.data.requests.map((entry) => entry.path)).toEqual(['/v1/voice-agents'])
    expect((await journal('?path=/v1/voice-agents')).json.data.requests).toHaveLength(3)
    expect((await journal('?status=4xx')).json.data.requests).toHaveLength(3)
    expect((await journal('?status=2xx&path=/v1/voices')).json.data.requests).toHaveLength(1)
    expect((await journal(`?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`)).json.data.requests).toHaveLength(0)
    expect(
      (await journal(`?from=${encodeURIComponent(startedAt)}&to=${encodeURIComponent(new Date(Date.now() + 1000).toISOString())}`)).json
        .data.requests,
    ).toHaveLength(5)

    const pages: Summary[][] = []
    let next: number | null = null
    do {
      const page: { requests: Summary[]; next: number | null } = (await journal(`?take=2${next === null ? '' : `&before=${next}`}`)).json
        .data
      pages.push(page.requests)
      next = page.next
    } while (next !== null)
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1])
    expect(pages.flat().map((entry) => entry.id)).toEqual(all.map((entry) => entry.id))

    for (const bad of ['?status=9xx', '?method=FETCH', '?take=0', '?path=v1', '?from=yesterday', '?before=-1']) {
      const answer = await journal(bad)
      expect(answer.status, bad).toBe(400)
      expect(answer.json).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } })
    }
    expect((await request('GET', '/_voicedesk/requests/999999')).json).toMatchObject({ error: { code: 'NOT_FOUND' } })
    expect((await request('GET', '/_voicedesk/requests', undefined, { authorization: 'Token nope-nope-nope-nope-nope' })).status).toBe(401)

    const other = await service.otherProject()
    const theirs = await request('GET', '/_voicedesk/requests', undefined, { authorization: `Token ${other.key}` })
    expect((theirs.json.data as { requests: unknown[] }).requests).toEqual([])
    expect((await request('GET', `/_voicedesk/requests/${all[0]!.id}`, undefined, { authorization: `Token ${other.key}` })).status).toBe(
      404,
    )
  })

  it('gives curl commands that a shell runs against the service and that answer the same', async () => {
    const { request, journal, baseUrl } = await listening()
    await request('POST', '/v1/voice-agents', { agentName: "Bob's 'quoted' $HOME agent", agentType: 'INBOUND' })
    await request('GET', '/v1/voices?lang=en')
    await request('POST', '/v1/voice-agents', { agentName: 42 })
    const agentId = ((await request('POST', '/v1/voice-agents', { agentName: 'Read again' })).json.data as { id: string }).id
    await request('GET', `/v1/voice-agents/${agentId}`)
    // An upload: the command sends the file again from where it runs (the journal kept only its name and size).
    const audio = Buffer.alloc(2400, 0x21)
    const form = new FormData()
    form.append('model', 'General-V2.0')
    form.append('processingType', 'async')
    form.append('file', new Blob([audio], { type: 'audio/wav' }), 'again.wav')
    expect(
      (await fetch(`${baseUrl}/v1/jobs/transcribe`, { method: 'POST', headers: { authorization: `Token ${TEST_KEY}` }, body: form }))
        .status,
    ).toBe(200)
    const folder = makeTempDir()
    writeFileSync(join(folder, 'again.wav'), audio)
    const entries = (await journal()).json.data.requests
    expect(entries.map((entry) => `${entry.method} ${entry.path.replace(/[0-9a-f-]{36}$/, '{id}')}`)).toEqual([
      'POST /v1/jobs/transcribe',
      'GET /v1/voice-agents/{id}',
      'POST /v1/voice-agents',
      'POST /v1/voice-agents',
      'GET /v1/voices',
      'POST /v1/voice-agents',
    ])
    for (const entry of entries) {
      const detail = (await request('GET', `/_voicedesk/requests/${entry.id}`)).json.data as {
        curl: { command: string }
        responseBody: { text: string }
      }
      const { stdout } = await run('sh', ['-c', `${detail.curl.command} -w '\\n%{http_code}'`], {
        cwd: folder,
        env: { ...process.env, VOICEDESK_KEY: TEST_KEY },
      })
      const status = Number(stdout.slice(stdout.lastIndexOf('\n') + 1))
      const body = JSON.parse(stdout.slice(0, stdout.lastIndexOf('\n'))) as Record<string, unknown>
      expect(status, detail.curl.command).toBe(entry.status)
      const journaled = JSON.parse(detail.responseBody.text) as Record<string, unknown>
      expect(Object.keys(body).sort()).toEqual(Object.keys(journaled).sort())
      if (entry.path === '/v1/jobs/transcribe') {
        // A new job each time: the same answer but for its id (and jobId), times and media name.
        const sameness = (data: unknown) => ({
          ...(data as object),
          id: null,
          jobId: null,
          createdAt: null,
          updatedAt: null,
          mediaUrl: null,
        })
        expect(sameness(body.data)).toEqual(sameness(journaled.data))
      } else if (entry.method === 'POST' && entry.status === 200) {
        expect((body.data as { agentName: string }).agentName).toBe(
          (JSON.parse(detail.responseBody.text) as { data: { agentName: string } }).data.agentName,
        )
      } else {
        expect(body).toEqual(journaled)
      }
    }
  })

  it('exports a HAR 1.2 log of every route kind (JSON, upload, prepared bytes, WebSocket) that validates against the HAR 1.2 schema', async () => {
    const { request, service, baseUrl } = await listening()
    await request('GET', '/v1/voices')
    await request('POST', '/v1/jobs/text-to-speech', { voiceId: AVA, text: 'Hello.' })
    await request('POST', '/v1/voice-agents', '{not json')
    const form = new FormData()
    form.append('model', 'General-V2.0')
    form.append('processingType', 'async')
    form.append('file', new Blob([Buffer.alloc(2000, 1)], { type: 'audio/wav' }), 'clip.wav')
    expect(
      (await fetch(`${baseUrl}/v1/jobs/transcribe`, { method: 'POST', headers: { authorization: `Token ${TEST_KEY}` }, body: form }))
        .status,
    ).toBe(200)
    const agentId = ((await request('POST', '/v1/voice-agents', { agentName: 'HAR agent' })).json.data as { id: string }).id
    await request('GET', `/v1/voice-agents/${agentId}`)
    const ws = openSocket(`${baseUrl.replace(/^http/, 'ws')}/v1/realtime/ws?api_key=${TEST_KEY}`)
    await ws.opened
    ws.socket.close(1000)
    await ws.closed
    await until(
      () => request('GET', '/_voicedesk/requests?path=/v1/realtime/ws'),
      (answer) => (answer.json.data as { requests: unknown[] }).requests.length === 1,
    )
    const answer = await fetch(`${service.runtime.context.baseUrl()}/_voicedesk/requests.har?take=20`, {
      headers: { authorization: `Token ${TEST_KEY}` },
    })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-disposition')).toContain('.har')
    const har = (await answer.json()) as { log: { version: string; creator: { name: string }; entries: HarEntry[] } }
    expect(har.log.version).toBe('1.2')
    expect(har.log.entries.map((entry) => `${entry.request.method} ${new URL(entry.request.url).pathname}`)).toEqual([
      'GET /v1/voices',
      'POST /v1/jobs/text-to-speech',
      'POST /v1/voice-agents',
      'POST /v1/jobs/transcribe',
      'POST /v1/voice-agents',
      `GET /v1/voice-agents/${agentId}`,
      'GET /v1/realtime/ws',
    ])
    const [voices, tts, , upload, , agent, socket] = har.log.entries
    expect(voices!.response).toMatchObject({
      status: 200,
      statusText: 'OK',
      content: { mimeType: expect.stringMatching(/json/) as unknown },
    })
    expect(tts!.request.postData).toMatchObject({ mimeType: 'application/json' })
    expect(tts!.request.headers).toContainEqual({ name: 'authorization', value: '[REDACTED]' })
    expect(upload!.request.postData).toMatchObject({
      params: [
        { name: 'model', value: 'General-V2.0' },
        { name: 'processingType', value: 'async' },
        { name: 'file', fileName: 'clip.wav', contentType: 'audio/wav' },
      ],
    })
    expect(JSON.parse(agent!.response.content.text!)).toMatchObject({ success: true, data: { id: agentId } })
    expect(socket!.request.url).toMatch(/^ws:\/\/.*api_key=%5BREDACTED%5D$/)
    expect(socket!._voicedesk).toMatchObject({ kind: 'websocket', socket: { closeCode: 1000 } })

    // har-schema@2.0.0 (the HAR 1.2 spec as JSON Schema draft-06): its own keywords are allowed (not strict);
    // formats (date-time, uri) are not checked (ajv-formats is no dependency): startedDateTime has a pattern too,
    // and the URLs are parsed above.
    const require = createRequire(import.meta.url)
    const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false })
    ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object)
    for (const schema of Object.values(require('har-schema') as Record<string, { $id?: unknown }>))
      if (typeof schema.$id === 'string') ajv.addSchema(schema as object)
    const validate = ajv.getSchema('har.json#')!
    expect(validate(har), JSON.stringify(validate.errors)).toBe(true)
  })

  it('prunes by count and by age, also entries not indexed yet, and stays pruned across a restart', async () => {
    let now = new Date()
    const dataDir = makeTempDir()
    const config = { now: () => now, journal: { maxEntries: 3 } }
    const first = await listening(config, dataDir)
    for (let index = 0; index < 5; index += 1) await first.request('GET', `/v1/voices?page=${index}`)
    // Written (one batch of five) but not read: not indexed yet when the count prunes it.
    first.service.runtime.journal!.flush()
    expect(first.service.runtime.journal!.prune()).toBe(2)
    // Stopped before any read: the batch the count cut through is indexed only after the restart.
    await first.service.runtime.stop()
    const kept = ['page=4', 'page=3', 'page=2']

    // Restarted keeping more: what was pruned stays pruned (the floor is in the file).
    const second = await listening({ ...config, journal: { maxEntries: 10 } }, dataDir)
    expect((await second.journal()).json.data.requests.map((entry) => entry.query)).toEqual(kept)
    now = new Date(now.getTime() + 8 * 24 * 3600_000)
    await second.request('GET', '/v1/voice-agents/templates') // started "now": 8 days later
    second.service.runtime.journal!.flush()
    second.service.runtime.journal!.prune()
    expect((await second.journal()).json.data.requests.map((entry) => entry.path)).toEqual(['/v1/voice-agents/templates'])
    // The bodies of pruned entries went too: one answer is left (a GET sends none); so did their
    // batches. Read once the service let go of the file: a running one holds it alone.
    await second.service.runtime.stop()
    const file = new BetterSqlite3(second.journalFile, { readonly: true })
    try {
      expect(file.prepare('SELECT count(*) FROM journal_bodies').pluck().get()).toBe(1)
      expect(file.prepare('SELECT count(*) FROM journal_batches').pluck().get()).toBe(1)
    } finally {
      file.close()
    }

    // Emptied by age, then restarted: the next entry is listed, and its id follows on.
    const { journal, service } = await listening({ ...config, journal: { maxEntries: 10 } }, dataDir)
    const [last] = (await journal()).json.data.requests
    now = new Date(now.getTime() + 8 * 24 * 3600_000)
    service.runtime.journal!.prune()
    expect((await journal()).json.data.requests).toEqual([])
    await service.runtime.stop()
    const third = await listening(config, dataDir)
    await third.request('GET', '/v1/voices')
    const [next] = (await third.journal()).json.data.requests
    expect(next).toMatchObject({ path: '/v1/voices' })
    expect(next!.id).toBeGreaterThan(last!.id)
  })

  it('survives a restart', async () => {
    const dataDir = makeTempDir()
    const first = await listening({}, dataDir)
    await first.request('GET', '/v1/voices')
    await first.service.runtime.stop() // no read before: the stop writes the queue
    const second = await listening({}, dataDir)
    expect((await second.journal()).json.data.requests.map((entry) => entry.path)).toEqual(['/v1/voices'])
  })

  it('gives a second process on the same data folder a file of its own (journal-2.db): one writer per file, none moved aside', async () => {
    const dataDir = makeTempDir()
    const first = await listening({}, dataDir)
    const second = await listening({}, dataDir)
    await first.request('GET', '/v1/voices?served=first')
    await second.request('GET', '/v1/voices?served=second')
    expect((await first.journal()).json.data.requests.map((entry) => entry.query)).toEqual(['served=first'])
    expect((await second.journal()).json.data.requests.map((entry) => entry.query)).toEqual(['served=second'])
    expect(
      readdirSync(dataDir)
        .filter((name) => name.startsWith('journal'))
        .sort(),
    ).toEqual(['journal-2.db', 'journal-2.db-wal', 'journal.db', 'journal.db-wal'])
    // Each file stays with its process until it stops; the next start takes the first free one.
    await first.service.runtime.stop()
    const third = await listening({}, dataDir)
    expect((await third.journal()).json.data.requests.map((entry) => entry.query)).toEqual(['served=first'])
    await second.service.runtime.stop()
  })

  it('leaves the store’s change version (the read caches’ key) alone', async () => {
    const { request, journal, service } = await listening()
    await request('GET', '/v1/voices') // the key's first use is recorded in the store (not waited for); the rest below only reads
    await journal()
    let before = service.runtime.store.changeVersion()
    for (let quiet = 0; quiet < 10; quiet += 1) {
      await new Promise((resolve) => setTimeout(resolve, 30))
      if (service.runtime.store.changeVersion() === before) continue
      before = service.runtime.store.changeVersion()
      quiet = 0
    }
    for (let index = 0; index < 20; index += 1) await request('GET', '/v1/voice-agents/templates')
    expect((await journal()).json.data.requests.length).toBeGreaterThan(20)
    expect(service.runtime.store.changeVersion()).toBe(before)
    // …and the version does move on a write to the store: the check above can fail.
    await request('POST', '/v1/voice-agents', { agentName: 'A write' })
    expect(service.runtime.store.changeVersion()).not.toBe(before)
  })

  it('moves a damaged journal file, or one of the first layout (a row per entry), aside and starts a new one', async () => {
    for (const make of [
      (file: string) => writeFileSync(file, 'not a database, '.repeat(100)),
      (file: string) => {
        const first = new BetterSqlite3(file)
        first.exec('CREATE TABLE journal_entries (id INTEGER PRIMARY KEY, path TEXT)')
        first.pragma('user_version = 1')
        first.close()
      },
    ]) {
      const dataDir = makeTempDir()
      make(join(dataDir, 'journal.db'))
      const { request, journal } = await listening({}, dataDir)
      await request('GET', '/v1/voices')
      expect((await journal()).json.data.requests.map((entry) => entry.path)).toEqual(['/v1/voices'])
      expect(readdirSync(dataDir).filter((name) => name.startsWith('journal.db.broken-'))).toHaveLength(1)
    }
  })

  it('makes the folders of its file private (0700), like the data folder', async () => {
    const dataDir = makeTempDir()
    const file = join(dataDir, 'journals', 'of-this-test', 'journal.db')
    const { request, journal } = await listening({ journal: { file } }, dataDir)
    await request('GET', '/v1/voices')
    expect((await journal()).json.data.requests).toHaveLength(1)
    for (const folder of [join(dataDir, 'journals'), join(dataDir, 'journals', 'of-this-test')])
      expect(statSync(folder).mode & 0o777).toBe(0o700)
    expect(statSync(file).mode & 0o777).toBe(0o600)
  })

  it.runIf(onPostgres)(
    'keeps its team-mode file in a private folder of the temp folder (0700, also when it was 0755) and refuses one that is a link',
    async () => {
      const temp = makeTempDir()
      const folder = join(temp, 'voicedesk-journal')
      mkdirSync(folder, { mode: 0o755 })
      const previous = process.env.TMPDIR
      process.env.TMPDIR = temp // os.tmpdir() reads it at every call
      try {
        const service = await startTestService({ journal: { file: undefined } })
        expect((await service.call('GET', '/v1/voices')).statusCode).toBe(200)
        expect(statSync(folder).mode & 0o777).toBe(0o700)
        expect(readdirSync(folder).filter((name) => name.endsWith('.db'))).toHaveLength(1)
        await service.runtime.stop()

        const elsewhere = join(temp, 'elsewhere')
        mkdirSync(elsewhere, { mode: 0o777 })
        process.env.TMPDIR = join(temp, 'linked')
        mkdirSync(process.env.TMPDIR)
        symlinkSync(elsewhere, join(process.env.TMPDIR, 'voicedesk-journal'))
        await expect(startTestService({ journal: { file: undefined } })).rejects.toThrow(/is a link or belongs to another user/)
        expect(readdirSync(elsewhere)).toEqual([])
      } finally {
        if (previous === undefined) delete process.env.TMPDIR
        else process.env.TMPDIR = previous
      }
    },
  )

  it('can be turned off: no file, no routes', async () => {
    const dataDir = makeTempDir()
    const { request, journalFile } = await listening({ journal: { enabled: false } }, dataDir)
    await request('GET', '/v1/voices')
    expect((await request('GET', '/_voicedesk/requests')).status).toBe(404)
    expect(existsSync(journalFile)).toBe(false)
  })
})

describe('RequestJournal', () => {
  it('drops the oldest entries, counted, when its queue is full, and writes the rest', () => {
    const file = join(makeTempDir(), 'journal.db')
    const journal = new RequestJournal({
      store: openRequestJournalStore(file),
      settings: { maxQueued: 10, flushMs: 60_000 },
      onError: (error) => expect.fail(String(error)),
    })
    try {
      for (let index = 1; index <= 25; index += 1) {
        journal.record({
          projectId: 'p',
          kind: 'http',
          startedAtMs: Date.now(),
          method: 'GET',
          path: `/v1/n/${index}`,
          query: '',
          status: 200,
          latencyMs: 1,
          keyHint: null,
          resourceId: null,
          requestHeaders: [],
          requestBody: null,
          responseHeaders: [],
          responseBody: null,
          socket: null,
        })
      }
      expect(journal.dropped).toBe(15)
      expect(journal.list({ projectId: 'p', limit: 100 }).map((entry) => entry.path)).toEqual(
        Array.from({ length: 10 }, (_, index) => `/v1/n/${25 - index}`),
      )
    } finally {
      journal.close()
    }
  })
})
