/**
 * The Requests screen's operations (requests.list, requests.get, requests.har) and the
 * requests.written event, through browser mode of a real runtime on 127.0.0.1: real /v1
 * requests made with fetch (a real HTTP client, with a real key), then read as the UI reads
 * them. The journal writes in batches; the event says when.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { VOICES } from '../../src/shared/voices'
import { keyHint } from '../../src/service/ops/api-keys'
import type { RuntimeConfig } from '../../src/service/runtime'
import { TEST_KEY } from '../helpers/test-service'
import { startBrowserMode } from './ipc-client'

const run = promisify(execFile)
const AVA = VOICES.find((voice) => voice.name === 'Ava')!.id
const WEBHOOK_SECRET = 'whk-ipc-secret-5d81c0b2a9'

async function startWithV1(config: Partial<RuntimeConfig> = {}) {
  const started = await startBrowserMode(config)
  const { service, url } = started
  /** A /v1 request as any client makes it: fetch, the key in the Authorization header. */
  const v1 = async (method: string, path: string, body?: unknown, key = service.key) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Token ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: response.status, json: (await response.json()) as { data?: { id?: string; jobId?: string } } }
  }
  return { ...started, v1 }
}

describe('requests.list, requests.get, requests.har', () => {
  it('lists real /v1 requests of the app’s project, newest first, filtered and paged by the cursor', async () => {
    const { service, ipc, v1 } = await startWithV1()
    const created = await v1('POST', '/v1/voice-agents', { agentName: 'Journal desk' })
    expect(created.status).toBe(200)
    await v1('GET', `/v1/voice-agents/${created.json.data!.id}`)
    await v1('GET', '/v1/voices?lang=en')
    const missing = await v1('GET', '/v1/jobs?jobId=00000000-0000-4000-8000-000000000000')
    expect(missing.status).toBe(404)
    // Another project's request is not the app's to see.
    const other = await service.otherProject()
    await v1('GET', '/v1/voices', undefined, other.key)

    const all = await ipc.ok('requests.list', {})
    expect(all.requests.map((entry) => `${entry.method} ${entry.path} ${entry.status}`)).toEqual([
      'GET /v1/jobs 404',
      'GET /v1/voices 200',
      `GET /v1/voice-agents/${created.json.data!.id} 200`,
      'POST /v1/voice-agents 200',
    ])
    expect(all).toMatchObject({ next: null, dropped: 0 })
    expect(all.requests[0]).toMatchObject({
      kind: 'http',
      query: 'jobId=00000000-0000-4000-8000-000000000000',
      keyHint: keyHint(TEST_KEY),
      resourceId: '00000000-0000-4000-8000-000000000000',
    })

    expect((await ipc.ok('requests.list', { method: 'post' })).requests.map((entry) => entry.path)).toEqual(['/v1/voice-agents'])
    expect((await ipc.ok('requests.list', { path: '/v1/voice-agents' })).requests).toHaveLength(2)
    expect((await ipc.ok('requests.list', { status: '4xx' })).requests.map((entry) => entry.status)).toEqual([404])
    const future = new Date(Date.now() + 60_000).toISOString()
    expect((await ipc.ok('requests.list', { from: future })).requests).toEqual([])
    expect((await ipc.ok('requests.list', { to: future })).requests).toHaveLength(4)

    const first = await ipc.ok('requests.list', { take: 3 })
    expect(first.requests).toHaveLength(3)
    expect(first.next).toBe(first.requests[2]!.id)
    const second = await ipc.ok('requests.list', { take: 3, before: first.next! })
    expect(second.requests.map((entry) => entry.path)).toEqual(['/v1/voice-agents'])
    expect(second.next).toBeNull()
  })

  it('refuses bad filters field by field, as VALIDATION_ERROR', async () => {
    const { ipc } = await startWithV1()
    for (const [input, path] of [
      [{ status: '6xx' }, 'status'],
      [{ path: 'v1/jobs' }, 'path'],
      [{ method: 'BREW' }, 'method'],
      [{ from: 'yesterday' }, 'from'],
      [{ take: 0 }, 'take'],
      [{ bogus: 1 }, 'bogus'],
    ] as const) {
      const result = await ipc.call('requests.list', input as never)
      expect(result.ok, JSON.stringify(input)).toBe(false)
      if (!result.ok)
        expect(result.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [expect.objectContaining({ path }) as unknown] })
    }
    const unknown = await ipc.call('requests.get', { id: 999_999 })
    expect(unknown).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } })
  })

  it('gives one request with its headers and bodies redacted, and a curl command that a shell runs against the service', async () => {
    const { ipc, v1 } = await startWithV1()
    const tts = await v1('POST', '/v1/jobs/text-to-speech', {
      voiceId: AVA,
      text: 'Hello there.',
      webhookUrl: 'http://127.0.0.1:9/h',
      webhookAuth: { authSecret: WEBHOOK_SECRET },
    })
    expect(tts.status).toBe(200)
    const [entry] = (await ipc.ok('requests.list', {})).requests
    const detail = await ipc.ok('requests.get', { id: entry!.id })
    expect(detail).toMatchObject({
      method: 'POST',
      path: '/v1/jobs/text-to-speech',
      status: 200,
      resourceId: tts.json.data!.jobId ?? tts.json.data!.id,
      socket: null,
    })
    expect(detail.requestHeaders).toContainEqual(['authorization', '[REDACTED]'])
    expect(detail.requestBody).toMatchObject({ contentType: 'application/json', truncated: false })
    expect(JSON.parse(detail.requestBody!.text!)).toMatchObject({ text: 'Hello there.', webhookAuth: { authSecret: '[REDACTED]' } })
    expect(detail.responseBody?.size).toBeGreaterThan(0)
    const answer = JSON.stringify(detail)
    expect(answer).not.toContain(TEST_KEY)
    expect(answer).not.toContain(WEBHOOK_SECRET)
    expect(detail.curl.notes.join(' ')).toMatch(/redacted/i)

    // The command is run as the screen tells the operator to: the key from the shell's environment.
    const { stdout } = await run('sh', ['-c', `${detail.curl.command!} -w '\\n%{http_code}'`], {
      env: { ...process.env, VOICEDESK_KEY: TEST_KEY },
    })
    expect(Number(stdout.slice(stdout.lastIndexOf('\n') + 1))).toBe(200)
    const replayed = JSON.parse(stdout.slice(0, stdout.lastIndexOf('\n'))) as { data: { title: string } }
    expect(replayed.data.title).toBe((JSON.parse(detail.responseBody!.text!) as { data: { title: string } }).data.title)
    // The replay is journaled too: it is the newest entry, the same request again.
    const [replay] = (await ipc.ok('requests.list', {})).requests
    expect(replay).toMatchObject({ method: 'POST', path: '/v1/jobs/text-to-speech', status: 200 })
    expect(replay!.id).toBeGreaterThan(entry!.id)
  })

  it('exports the filtered requests as HAR 1.2 text with a file name', async () => {
    const { ipc, v1 } = await startWithV1()
    await v1('GET', '/v1/voices')
    await v1('POST', '/v1/voice-agents', { agentName: 42 })
    await v1('GET', '/v1/voice-agents/templates')
    const { fileName, har } = await ipc.ok('requests.har', { path: '/v1/voice' })
    expect(fileName).toMatch(/^voicedesk-requests-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.har$/)
    const log = (
      JSON.parse(har) as { log: { version: string; entries: { request: { method: string; url: string }; response: { status: number } }[] } }
    ).log
    expect(log.version).toBe('1.2')
    // Oldest first, as HAR viewers expect.
    expect(log.entries.map((entry) => `${entry.request.method} ${new URL(entry.request.url).pathname} ${entry.response.status}`)).toEqual([
      'GET /v1/voices 200',
      'POST /v1/voice-agents 400',
      'GET /v1/voice-agents/templates 200',
    ])
    expect((JSON.parse((await ipc.ok('requests.har', { status: '4xx' })).har) as { log: { entries: unknown[] } }).log.entries).toHaveLength(
      1,
    )
    expect(har).not.toContain(TEST_KEY)
  })

  it('tells the UI when new requests were written', async () => {
    const { events, v1 } = await startWithV1()
    const stream = await events()
    await v1('GET', '/v1/voices')
    expect(await stream.next((event) => event.type === 'requests.written')).toEqual({ type: 'requests.written' })
  })

  it('says the journal is off, as CONFLICT, when the service runs with --journal off', async () => {
    const { ipc, v1 } = await startWithV1({ journal: { enabled: false } })
    await v1('GET', '/v1/voices')
    for (const [name, input] of [
      ['requests.list', {}],
      ['requests.get', { id: 1 }],
      ['requests.har', {}],
    ] as const) {
      expect(await ipc.call(name, input as never)).toEqual({
        ok: false,
        error: { code: 'CONFLICT', message: 'The request journal is off (serve --journal on)', details: [] },
      })
    }
  })
})
