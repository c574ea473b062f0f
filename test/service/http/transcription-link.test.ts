/**
 * The operator UI's new transcriptions (jobs.transcriptionUploadLink, jobs.createTranscription)
 * through the real runtime's handler table and real HTTP on 127.0.0.1, on SQLite and (in the
 * `postgres` project) PostgreSQL: a real WAV (eSpeak speech) POSTed to the one-use link as a
 * browser would, with no key. The speech recognition server is a loopback double
 * (helpers/speech-server-double.ts) standing for whisper.cpp's server, outside this machine.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { JobSchema } from '../../../src/shared/api/jobs'
import { invokeOperation } from '../../../src/service/operator/invoke-operation'
import { LINK_LIFETIME_MS } from '../../../src/service/ops/one-use-links'
import type { Runtime } from '../../../src/service/runtime'
import { STT_SETTING_KEY } from '../../../src/service/settings/stt-settings'
import { startLiveService } from '../../helpers/project-state-fixture'
import { speechWav } from '../../helpers/speech-media'
import { startSpeechServerDouble } from '../../helpers/speech-server-double'
import { waitForJobEnd } from '../../helpers/test-service'

/** The form a browser's FormData makes, with the file alone. */
function formWith(file: { bytes: Buffer; name: string; type: string } | undefined): FormData {
  const form = new FormData()
  if (file) form.append('file', new Blob([file.bytes], { type: file.type }), file.name)
  else form.append('note', 'no file here')
  return form
}

async function envelopeOf(response: Response) {
  return (await response.json()) as { success: boolean; data: unknown; error?: { code: string; details: { path: string }[] } }
}

/** An operation as a transport runs it (the contract's schema first, defaults applied), its data or a thrown failure. */
async function operate(runtime: Runtime, name: string, input: unknown): Promise<unknown> {
  const result = await invokeOperation(runtime.operatorHandlers('browser'), name, input)
  if (!result.ok) throw new Error(`${name}: ${JSON.stringify(result.error)}`)
  return result.data
}
const uploadLink = async (runtime: Runtime, input: unknown = {}): Promise<string> =>
  ((await operate(runtime, 'jobs.transcriptionUploadLink', input)) as { url: string }).url

/** A clock the test moves forward: the runtime's, so a link's five minutes can pass at once. */
function movableClock() {
  let ahead = 0
  return { now: () => new Date(Date.now() + ahead), advance: (ms: number) => (ahead += ms) }
}

const sites: Server[] = []
afterEach(async () => {
  for (const site of sites.splice(0)) await new Promise((resolve) => site.close(resolve))
})

describe('jobs.transcriptionUploadLink', () => {
  it(
    "takes a WAV once, with no key: the job is the app's, its media served back byte for byte, transcribed by the configured server",
    { timeout: 60_000 },
    async () => {
      const speech = await startSpeechServerDouble()
      const service = await startLiveService()
      await service.runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: speech.url, model: 'whisper-1' })
      const { wav } = await speechWav(['Good morning, this is the weekly call.', 0.5])

      const url = await uploadLink(service.runtime, { language: 'en' })
      expect(url).toMatch(/\/_voicedesk\/links\/transcribe\/[A-Za-z0-9_-]{32}$/)
      // The desktop window (file://) asks first, since it listens to the upload's progress.
      const preflight = await fetch(url, { method: 'OPTIONS', headers: { origin: 'null', 'access-control-request-method': 'POST' } })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*')

      const answer = await fetch(url, {
        method: 'POST',
        body: formWith({ bytes: wav, name: 'weekly-call.wav', type: 'audio/wav' }),
        headers: { origin: 'null' },
      })
      expect(answer.status, await answer.clone().text()).toBe(200)
      expect(answer.headers.get('access-control-allow-origin')).toBe('*')
      const job = JobSchema.parse((await envelopeOf(answer)).data)
      expect(job).toMatchObject({ type: 'TRANSCRIPTION', status: 'PENDING', title: 'weekly-call', fromLng: 'en', model: 'General-V2.0' })

      // The app's project: the UI's own jobs.get and the /v1 key of that project both see it.
      const { projectId } = (await operate(service.runtime, 'service.info', {})) as { projectId: string }
      expect((await service.runtime.store.jobs.findInProject(job.id, projectId))?.id).toBe(job.id)
      expect(((await operate(service.runtime, 'jobs.get', { id: job.id })) as { job: { id: string } }).job.id).toBe(job.id)
      const served = await fetch(job.mediaUrl!)
      expect(served.status).toBe(200)
      expect(Buffer.from(await served.arrayBuffer()).equals(wav)).toBe(true)

      const done = await waitForJobEnd(service, job.id)
      expect(done.status, JSON.stringify(done.error)).toBe('COMPLETED')
      expect(speech.requests).toHaveLength(1)
      expect(speech.requests[0]!.language).toBe('en')

      // A second use finds nothing, and stores nothing.
      const again = await fetch(url, { method: 'POST', body: formWith({ bytes: wav, name: 'weekly-call.wav', type: 'audio/wav' }) })
      expect(again.status).toBe(404)
      expect((await envelopeOf(again)).error?.code).toBe('NOT_FOUND')
    },
  )

  it(
    'is refused after five minutes (404), and refuses a form without a file (400) and a file over --max-media-size (413), as /v1 does',
    { timeout: 60_000 },
    async () => {
      const clock = movableClock()
      const service = await startLiveService({ now: clock.now, mediaIntake: { maxUploadBytes: 64 * 1024 } })
      const small = Buffer.alloc(2_000, 7)

      const stale = await uploadLink(service.runtime)
      clock.advance(LINK_LIFETIME_MS + 1_000)
      const late = await fetch(stale, { method: 'POST', body: formWith({ bytes: small, name: 'late.wav', type: 'audio/wav' }) })
      expect(late.status).toBe(404)

      const noFile = await fetch(await uploadLink(service.runtime), { method: 'POST', body: formWith(undefined) })
      expect(noFile.status).toBe(400)
      expect((await envelopeOf(noFile)).error).toMatchObject({ code: 'VALIDATION_ERROR' })

      const tooLarge = await fetch(await uploadLink(service.runtime), {
        method: 'POST',
        body: formWith({ bytes: Buffer.alloc(65 * 1024, 1), name: 'big.wav', type: 'audio/wav' }),
      })
      expect(tooLarge.status).toBe(413)
      expect((await envelopeOf(tooLarge)).error?.details.map((detail) => detail.path)).toEqual(['body.file'])

      // A JSON body is not an upload (415), and a bad token is a 400 in the envelope.
      const json = await fetch(await uploadLink(service.runtime), {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      })
      expect(json.status).toBe(415)
      expect(
        (await fetch(`${service.baseUrl}/_voicedesk/links/transcribe/short`, { method: 'POST', body: formWith(undefined) })).status,
      ).toBe(400)
      expect(((await operate(service.runtime, 'jobs.list', {})) as { jobs: unknown[] }).jobs).toEqual([])
    },
  )

  it('takes a file that is not media, as /v1 does, and the job fails with MEDIA_UNREADABLE in words', { timeout: 60_000 }, async () => {
    const speech = await startSpeechServerDouble()
    const service = await startLiveService()
    await service.runtime.store.settings.set(STT_SETTING_KEY, { engine: 'openai-compatible', baseUrl: speech.url, model: 'whisper-1' })
    const answer = await fetch(await uploadLink(service.runtime, { title: 'Notes' }), {
      method: 'POST',
      body: formWith({ bytes: Buffer.from('These are meeting notes, not a recording.\n'), name: 'notes.wav', type: 'audio/wav' }),
    })
    expect(answer.status, await answer.clone().text()).toBe(200)
    const job = JobSchema.parse((await envelopeOf(answer)).data)
    expect(job.title).toBe('Notes')
    const done = await waitForJobEnd(service, job.id)
    expect(done.status).toBe('FAILED')
    expect(done.error?.code).toBe('MEDIA_UNREADABLE')
    expect(speech.requests).toEqual([])
  })
})

describe('jobs.createTranscription', () => {
  it(
    'queues a URL as POST /v1/jobs/transcribe does; with no speech server the job fails STT_ENGINE_NOT_CONFIGURED',
    { timeout: 60_000 },
    async () => {
      const { wav } = await speechWav(['One two three.'])
      const site = createServer((request, response) => {
        if (request.url !== '/call.wav') return void response.writeHead(404).end('not here')
        response.writeHead(200, { 'content-type': 'audio/wav' }).end(wav)
      })
      sites.push(site)
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
      const service = await startLiveService()
      const job = JobSchema.parse(
        await operate(service.runtime, 'jobs.createTranscription', {
          mediaUrl: `http://127.0.0.1:${(site.address() as AddressInfo).port}/call.wav`,
          language: 'ar',
        }),
      )
      expect(job).toMatchObject({ type: 'TRANSCRIPTION', title: 'call', fromLng: 'ar' })
      const done = await waitForJobEnd(service, job.id)
      expect(done.status).toBe('FAILED')
      expect(done.error?.code).toBe('STT_ENGINE_NOT_CONFIGURED')
    },
  )
})
