import { randomUUID } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ApiKeyAuthenticator } from '../../../src/service/ops/api-keys'
import { apiKeyGate } from '../../../src/service/http/auth'
import { diskFullGate } from '../../../src/service/http/disk-full-gate'
import { LINGER, readMediaUpload } from '../../../src/service/http/media-upload'
import { registerRequestGates } from '../../../src/service/http/request-gates'
import { invokeOperation } from '../../../src/service/operator/invoke-operation'
import type { Runtime, RuntimeConfig } from '../../../src/service/runtime'
import type { PostgresStore } from '../../../src/store/postgres/store'
import { dripRequest } from '../../helpers/raw-http'
import { startTestService, TEST_KEY } from '../../helpers/test-service'

/*
 * Uploads over real HTTP on 127.0.0.1, into the runtime's real media store (the data folder's
 * media/ on SQLite, the database in the postgres project). The route is this test's own: the
 * real routes that take uploads (POST /v1/jobs/transcribe) use the same readMediaUpload.
 */

const LIMIT = 4 * 1024 * 1024
const Fields = z.strictObject({ title: z.string().min(1).max(20), language: z.string().optional() })

let runtime: Runtime
let dataDir: string
let port: number
let mediaNames: string[]

async function startWithTestRoutes(config: Partial<RuntimeConfig> = {}) {
  const service = await startTestService({ port: 0, host: '127.0.0.1', ...config })
  runtime = service.runtime
  dataDir = service.dataDir
  mediaNames = []
  await runtime.app.register(
    async (v1) => {
      registerRequestGates(v1, [apiKeyGate(new ApiKeyAuthenticator(runtime.context, () => undefined)), diskFullGate(runtime.diskFull)])
      v1.post('/test-upload', { config: { mediaUpload: true } }, async (request, reply) => {
        const name = `${randomUUID()}.media`
        mediaNames.push(name)
        return readMediaUpload(request, reply, {
          fields: Fields,
          media: runtime.media,
          name,
          maxBytes: LIMIT,
          pace: runtime.context.mediaIntake,
        })
      })
      v1.post('/test-json', async () => ({ ok: true }))
      // Disk mode of @fastify/multipart (no route of the service uses it): its files are removed once the answer is sent.
      v1.post('/test-saved-upload', { config: { mediaUpload: true } }, async (request, reply) => {
        const saved = await request.saveRequestFiles({ tmpdir: dataDir })
        return { files: saved.files.map((part) => part.filepath), closeListeners: reply.raw.listenerCount('close') }
      })
      v1.post('/test-listeners', async (_request, reply) => ({ closeListeners: reply.raw.listenerCount('close') }))
    },
    { prefix: '/v1' },
  )
  port = Number(new URL(await runtime.start()).port)
}

beforeEach(() => startWithTestRoutes())

/** Every media name kept, in the data folder or the database. */
async function storedMedia(): Promise<string[]> {
  if (runtime.store.engine === 'postgres') {
    const { rows } = await (runtime.store as PostgresStore).pool.query<{ name: string }>(
      'SELECT name FROM media UNION SELECT name FROM media_chunks',
    )
    return rows.map((row) => row.name)
  }
  return readdirSync(join(dataDir, 'media'))
}

type Part =
  | { name: string; value: string; type?: string }
  | { name: string; filename: string; type: string; bytes: Iterable<Buffer> | AsyncIterable<Buffer> }

/** A multipart/form-data body made as it is sent: a file's bytes are never all in memory. */
async function* multipart(boundary: string, parts: Part[]): AsyncGenerator<Buffer> {
  for (const part of parts) {
    if ('value' in part) {
      const type = part.type ? `\r\nContent-Type: ${part.type}` : ''
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${type}\r\n\r\n${part.value}\r\n`)
    } else {
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: ${part.type}\r\n\r\n`,
      )
      for await (const chunk of part.bytes) yield chunk
      yield Buffer.from('\r\n')
    }
  }
  yield Buffer.from(`--${boundary}--\r\n`)
}

/** `total` bytes of a recognisable pattern, made 64 KiB at a time. */
function* pattern(total: number): Generator<Buffer> {
  for (let sent = 0; sent < total;) {
    const size = Math.min(64 * 1024, total - sent)
    const chunk = Buffer.alloc(size)
    for (let i = 0; i < size; i += 1) chunk[i] = (sent + i) % 251
    sent += size
    yield chunk
  }
}

/** The same chunks, counting them as they are taken. */
function* counted(chunks: Iterable<Buffer>, count: (bytes: number) => void): Generator<Buffer> {
  for (const chunk of chunks) {
    count(chunk.length)
    yield chunk
  }
}

interface Answer {
  status: number
  headers: Record<string, string | string[] | undefined>
  json: { success?: boolean; message?: string; error?: { code: string; details: { path: string; message: string }[] } } & Record<
    string,
    unknown
  >
}

/** POSTs a streamed body over a real socket; the answer may come (and the socket close) before the body is all sent. */
function post(path: string, body: AsyncIterable<Buffer> | string, contentType: string, key: string | null = TEST_KEY): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': contentType }
    if (key) headers.authorization = `Token ${key}`
    const request = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers }, (response) => {
      buffer(response).then(
        (bytes) =>
          resolve({ status: response.statusCode!, headers: response.headers, json: bytes.length ? JSON.parse(bytes.toString()) : {} }),
        reject,
      )
    })
    // The server may stop reading and close once it has answered: not an error of the test.
    request.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error),
    )
    Readable.from(typeof body === 'string' ? [Buffer.from(body)] : body)
      .on('error', reject)
      .pipe(request)
  })
}

const BOUNDARY = 'voicedesk-test-boundary-1234'
const FORM = `multipart/form-data; boundary=${BOUNDARY}`
const upload = (parts: Part[]) => post('/v1/test-upload', multipart(BOUNDARY, parts), FORM)
const file = (total: number, name = 'file'): Part => ({ name, filename: 'meeting.mp4', type: 'video/mp4', bytes: pattern(total) })

describe('media uploads (multipart/form-data)', () => {
  it('streams the file part into the media store and validates the text parts', async () => {
    const answer = await upload([{ name: 'title', value: 'Weekly call' }, file(3 * 1024 * 1024 + 17), { name: 'language', value: 'en' }])
    expect(answer.status).toBe(200)
    expect(answer.json).toEqual({
      fields: { title: 'Weekly call', language: 'en' },
      file: { name: mediaNames[0], size: 3 * 1024 * 1024 + 17, filename: 'meeting.mp4', mimetype: 'video/mp4' },
    })
    const stored = await buffer((await runtime.media.open(mediaNames[0]!))!.stream)
    expect(stored.equals(Buffer.concat([...pattern(3 * 1024 * 1024 + 17)]))).toBe(true)
    // Exactly the limit is taken.
    expect((await upload([{ name: 'title', value: 'Full' }, file(LIMIT)])).status).toBe(200)
  })

  it('refuses a file over the limit with 413, keeping nothing', async () => {
    const answer = await upload([{ name: 'title', value: 'Too long' }, file(LIMIT + 1)])
    expect(answer.status).toBe(413)
    expect(answer.json).toEqual({
      success: false,
      message: 'The file is larger than the limit of 4 MiB; nothing was kept',
      error: { code: 'PAYLOAD_TOO_LARGE', details: [{ path: 'body.file', message: 'Larger than 4 MiB' }] },
    })
    // A far larger one is cut off as early: the rest of its body is not read (a little is, after the answer, then the connection closes).
    let made = 0
    const huge = await post(
      '/v1/test-upload',
      multipart(BOUNDARY, [
        { name: 'file', filename: 'long.mp4', type: 'video/mp4', bytes: counted(pattern(256 * 1024 * 1024), (bytes) => (made += bytes)) },
      ]),
      FORM,
    )
    expect(huge.status).toBe(413)
    expect(made).toBeLessThan(LIMIT + LINGER.bytes + 16 * 1024 * 1024)
    expect(await storedMedia()).toEqual([])
  })

  it('refuses invalid text parts in the envelope naming body.<field>, and deletes the stored file', async () => {
    const answer = await upload([file(100_000), { name: 'title', value: '' }, { name: 'colour', value: 'blue' }])
    expect(answer.status).toBe(400)
    expect(answer.json.error?.code).toBe('VALIDATION_ERROR')
    expect(answer.json.error?.details.map((detail) => detail.path).sort()).toEqual(['body.colour', 'body.title'])
    expect(answer.json.message).toMatch(/^Invalid request: body\.(title|colour): /)
    const twice = await upload([{ name: 'title', value: 'One' }, { name: 'title', value: 'Two' }, file(10)])
    expect(twice.json.error).toEqual({ code: 'VALIDATION_ERROR', details: [{ path: 'body.title', message: 'Given twice' }] })
    const long = await upload([{ name: 'title', value: 'x'.repeat(70 * 1024) }, file(10)])
    expect(long.json.error).toEqual({ code: 'VALIDATION_ERROR', details: [{ path: 'body.title', message: 'Longer than 64 KiB' }] })
    const many = await upload([...Array.from({ length: 40 }, (_, i) => ({ name: `f${i}`, value: 'x' })), file(10)])
    expect(many.status).toBe(413)
    expect(many.json.error?.code).toBe('PAYLOAD_TOO_LARGE')
    expect(await storedMedia()).toEqual([])
  })

  it('refuses a form without a file, with two files, or with a file in another part', async () => {
    const none = await upload([{ name: 'title', value: 'No file' }])
    expect(none.status).toBe(400)
    expect(none.json).toEqual({
      success: false,
      message: 'Invalid request: body.file: A file part named "file" is required',
      error: { code: 'VALIDATION_ERROR', details: [{ path: 'body.file', message: 'A file part named "file" is required' }] },
    })
    const two = await upload([{ name: 'title', value: 'Two' }, file(200_000), file(200_000)])
    expect(two.json.error).toEqual({ code: 'VALIDATION_ERROR', details: [{ path: 'body.file', message: 'Only one file may be sent' }] })
    const elsewhere = await upload([{ name: 'title', value: 'Elsewhere' }, file(1000, 'audio')])
    expect(elsewhere.json.error).toEqual({
      code: 'VALIDATION_ERROR',
      details: [{ path: 'body.audio', message: 'Only the part named "file" may carry a file' }],
    })
    expect(await storedMedia()).toEqual([])
  })

  it('refuses a body that is not multipart, or is malformed or cut short', async () => {
    const json = await post('/v1/test-upload', '{"title":"x"}', 'application/json')
    expect(json.status).toBe(415)
    expect(json.json.error?.code).toBe('UNSUPPORTED_MEDIA_TYPE')
    expect(json.json.message).toMatch(/multipart\/form-data/)
    const noBoundary = await post('/v1/test-upload', 'whatever', 'multipart/form-data')
    expect(noBoundary.status).toBe(400)
    expect(noBoundary.json.error?.details[0]?.path).toBe('body')
    const cut = await post(
      '/v1/test-upload',
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\n\r\nonly half`,
      FORM,
    )
    expect(cut.status).toBe(400)
    expect(cut.json.error?.code).toBe('VALIDATION_ERROR')
    expect(await storedMedia()).toEqual([])
  })

  it('keeps JSON routes as they were: a multipart body there is 415, and JSON still works', async () => {
    const refused = await upload([file(2 * 1024 * 1024)]).then(() =>
      post('/v1/test-json', multipart(BOUNDARY, [file(2 * 1024 * 1024)]), FORM),
    )
    expect(refused.status).toBe(415)
    expect(refused.json).toEqual({
      success: false,
      message: 'Request bodies must be JSON, sent with Content-Type: application/json',
      error: { code: 'UNSUPPORTED_MEDIA_TYPE', details: [] },
    })
    expect((await post('/v1/test-json', '{}', 'application/json')).json).toEqual({ ok: true })
    // A real route, too.
    const tts = await post('/v1/jobs/text-to-speech', multipart(BOUNDARY, [{ name: 'text', value: 'hi' }]), FORM)
    expect(tts.status).toBe(415)
  })

  it("runs the multipart plugin's request hooks on upload routes only: saved files are removed after the answer, other routes pay nothing", async () => {
    const saved = await post('/v1/test-saved-upload', multipart(BOUNDARY, [file(5000)]), FORM)
    expect(saved.status).toBe(200)
    const files = saved.json.files as string[]
    expect(files).toHaveLength(1)
    await expect.poll(() => existsSync(files[0]!)).toBe(false)
    // The plugin's onRequest hook listens for the answer's close (to clean up after a dropped client): on upload routes only.
    const other = await post('/v1/test-listeners', '{}', 'application/json')
    expect(saved.json.closeListeners).toBe((other.json.closeListeners as number) + 1)
  })

  it('needs a key, and answers 507 while the disk is full, before reading the upload', async () => {
    expect((await post('/v1/test-upload', multipart(BOUNDARY, [file(1000)]), FORM, null)).status).toBe(401)
    runtime.diskFull.report(Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' }))
    const full = await upload([{ name: 'title', value: 'Full' }, file(1024 * 1024)])
    expect(full.status).toBe(507)
    expect(full.json.error?.code).toBe('INSUFFICIENT_STORAGE')
    expect(await storedMedia()).toEqual([])
  })

  it('answers a disk that fills mid-upload 507, keeps no partial file, and enters the disk-full state', async (context) => {
    if (runtime.store.engine !== 'sqlite') return context.skip() // the database server's disk: not ours to fill
    const disk = smallDisk(3)
    if (!disk) return context.skip()
    await runtime.stop()
    await startWithTestRoutes({ dataDir: disk })
    const answer = await upload([{ name: 'title', value: 'Big' }, file(LIMIT)])
    expect(answer.status).toBe(507)
    expect(answer.json.error?.code).toBe('INSUFFICIENT_STORAGE')
    expect(runtime.diskFull.isFull).toBe(true)
    expect(await storedMedia()).toEqual([])
  })
})

const mounts: string[] = []
afterEach(async () => {
  // The runtime first (its SQLite file is on the disk), then the disk.
  if (mounts.length === 0) return
  await runtime.stop()
  for (const mount of mounts.splice(0)) {
    execFileSync('umount', [mount], { stdio: 'pipe' })
    rmSync(mount, { recursive: true, force: true })
  }
})

/** A tmpfs of `sizeMiB`, or undefined where mounting is not allowed (the test is then skipped, and says why). */
function smallDisk(sizeMiB: number): string | undefined {
  const directory = mkdtempSync(join(tmpdir(), 'voicedesk-small-disk-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', directory], { stdio: 'pipe' })
    mounts.push(directory)
    return directory
  } catch (error) {
    rmSync(directory, { recursive: true, force: true })
    console.warn(`full-disk upload test skipped: cannot mount a tmpfs (${(error as Error).message.split('\n')[0]})`)
    return undefined
  }
}

describe('slow uploads (a slow-loris client on a real socket; limits shortened for the test)', () => {
  /** The pace limits of the test: the defaults are 30 s silent, 4 KiB/s over 30 s, one hour in all. */
  const PACE = { uploadIdleTimeoutMs: 500, minUploadBytesPerSecond: 256, uploadRateWindowMs: 500, uploadDeadlineMs: 2_000 }
  /** Headers and a body up to the file's first byte; the file's bytes follow as the client drips them. */
  const head = (path: string, fields: Record<string, string> = { title: 'Slow' }) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${TEST_KEY}\r\nContent-Type: ${FORM}\r\nContent-Length: 100000000\r\n\r\n` +
    Object.entries(fields)
      .map(([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('') +
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="slow.mp4"\r\nContent-Type: video/mp4\r\n\r\n`

  function expectTimedOut(answer: Awaited<ReturnType<typeof dripRequest>>, message: RegExp, limitMs: number) {
    expect(answer.status, answer.body).toBe(408)
    expect(answer.headers.connection).toBe('close')
    const envelope = JSON.parse(answer.body) as Answer['json']
    expect(envelope).toMatchObject({
      success: false,
      error: { code: 'REQUEST_TIMEOUT', details: [{ path: 'body', message: expect.stringMatching(message) }] },
    })
    expect(envelope.message).toMatch(/nothing was kept/)
    // Answered once the limit is met (checked a tenth of it apart), closed after the lingering read of a refused body.
    expect(answer.answeredAfterMs).toBeGreaterThanOrEqual(limitMs - 50)
    expect(answer.answeredAfterMs).toBeLessThan(limitMs + 1_000)
    expect(answer.closedAfterMs).toBeLessThan(answer.answeredAfterMs + LINGER.ms + 1_000)
  }

  it('refuses a drip of a byte every 100 ms (408, slower than the least pace) and closes the socket, keeping nothing', async () => {
    await startWithTestRoutes({ mediaIntake: PACE })
    const answer = await dripRequest(port, head('/v1/test-upload'), { piece: 'x', everyMs: 100 })
    expectTimedOut(answer, /slower than the least pace of 256 bytes\/s/, PACE.uploadRateWindowMs)
    expect(await storedMedia()).toEqual([])
  })

  it('refuses an upload that falls silent (408) and one still steadily arriving at its deadline (408)', async () => {
    await startWithTestRoutes({ mediaIntake: PACE })
    const silent = await dripRequest(port, head('/v1/test-upload'), { piece: '', everyMs: 0 })
    expectTimedOut(silent, /No byte of the upload arrived for 0\.5 s/, PACE.uploadIdleTimeoutMs)
    const steady = await dripRequest(port, head('/v1/test-upload'), { piece: 'x'.repeat(200), everyMs: 50 }) // 4,000 B/s, over the least pace
    expectTimedOut(steady, /took longer than 2 s/, PACE.uploadDeadlineMs)
    expect(await storedMedia()).toEqual([])
  })

  it('sends 24 slow clients away at once on every upload route (the one-use link too), while a quick upload is kept', async () => {
    await startWithTestRoutes({ mediaIntake: PACE })
    const link = await invokeOperation(runtime.operatorHandlers('browser'), 'jobs.transcriptionUploadLink', {})
    if (!link.ok) throw new Error(JSON.stringify(link.error))
    const linkPath = new URL((link.data as { url: string }).url).pathname
    const routes = [
      ['/v1/test-upload', { title: 'Slow' }],
      ['/v1/jobs/transcribe', { model: 'General-V2.0', processingType: 'async' }],
      ['/v1/realtime/stt', {}],
    ] as const
    const slow = [...Array.from({ length: 21 }, (_, index) => routes[index % 3]!), [linkPath, {}] as const].map(([path, fields]) =>
      dripRequest(port, head(path, fields), { piece: 'x', everyMs: 100 }),
    )
    const quick = await upload([{ name: 'title', value: 'Quick' }, file(64 * 1024)])
    expect(quick.status, JSON.stringify(quick.json)).toBe(200)
    const answers = await Promise.all(slow)
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 408))
    for (const answer of answers) expect(answer.body).toMatch(/slower than the least pace/)
    expect(await storedMedia()).toEqual([(quick.json as { file: { name: string } }).file.name])
  })

  it('keeps the defaults documented: 30 s silent, 4 KiB/s over 30 s, one hour in all', () => {
    expect(runtime.context.mediaIntake).toMatchObject({
      uploadIdleTimeoutMs: 30_000,
      minUploadBytesPerSecond: 4096,
      uploadRateWindowMs: 30_000,
      uploadDeadlineMs: 3_600_000,
    })
  })
})
