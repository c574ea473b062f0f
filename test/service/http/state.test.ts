import { gunzipSync, gzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { withRows } from '../../helpers/archive-entries'
import { onPostgres } from '../../helpers/test-engine'
import { sharedSpeechEngine } from '../../helpers/shared-speech-engine'
import { startWebhookReceiver } from '../../helpers/webhook-receiver'
import { everyGet, exportState, importState, seedProject, startLiveService } from '../../helpers/project-state-fixture'

/*
 * The state admin API (docs/api.md, "State: export, import, snapshots, reset") over real HTTP
 * on 127.0.0.1 with fetch, on SQLite and (the postgres project) on PostgreSQL. Webhooks go to
 * a loopback receiver, which stands for the client's server.
 *
 * On PostgreSQL, what storage does differently: the round trip, the refusal of a project that
 * is not empty, snapshots (media, in the database there), restore under running jobs (leases),
 * rows the store refuses. The archive's own refusals (tampered, foreign, not an archive), the
 * passphrase's sealing (cryptography over rows the round trip stores), the one-use links (held
 * in memory, in front of the same import) and the routes' input checks are refused or done
 * before storage, the same on either engine: SQLite only.
 */

async function errorOf(response: Response) {
  const body = (await response.json()) as { success: boolean; message: string; error: { code: string; details: { path: string }[] } }
  expect(body.success).toBe(false)
  return { status: response.status, code: body.error.code, message: body.message, paths: body.error.details.map((detail) => detail.path) }
}

describe('export, reset, import', () => {
  it('gives back every GET of /v1 byte for byte: lists, items, media, deliveries, statistics', { timeout: 60_000 }, async () => {
    const receiver = await startWebhookReceiver()
    const service = await startLiveService({ speechEngine: await sharedSpeechEngine() })
    await seedProject(service, receiver)
    const before = await everyGet(service)
    expect([...before.keys()].filter((key) => key.startsWith('GET /media/')).length).toBe(2)
    expect([...before.keys()].filter((key) => key.startsWith('GET /v1/webhooks/deliveries/')).length).toBe(2)

    const archive = await exportState(service)
    const reset = await service.http('POST', '/_voicedesk/reset')
    expect(reset.status).toBe(200)
    expect(((await reset.json()) as { data: { removed: Record<string, number> } }).data.removed).toMatchObject({
      agents: 2,
      phoneNumbers: 1,
      jobs: 2,
      deliveries: 2,
    })
    const emptied = await everyGet(service)
    expect(emptied.get('GET /v1/voice-agents?take=100')).not.toEqual(before.get('GET /v1/voice-agents?take=100'))
    // The key survived the reset: this very call used it.
    const imported = await importState(service, archive)
    expect(imported.status, await imported.clone().text()).toBe(200)
    expect(((await imported.json()) as { data: { counts: Record<string, number> } }).data.counts).toMatchObject({
      agents: 2,
      phoneNumbers: 1,
      jobs: 2,
      deliveries: 2,
    })

    const after = await everyGet(service)
    expect([...after.keys()]).toEqual([...before.keys()])
    for (const [request, answer] of before) expect(after.get(request), request).toBe(answer)
  })

  it('refuses an import into a project that is not empty (409, reset first), and changes nothing', async () => {
    const receiver = await startWebhookReceiver()
    const service = await startLiveService({ speechEngine: await sharedSpeechEngine() })
    await seedProject(service, receiver)
    const archive = await exportState(service)
    const before = await everyGet(service)
    const refused = await errorOf(await importState(service, archive))
    expect(refused).toMatchObject({ status: 409, code: 'CONFLICT' })
    expect(refused.message).toMatch(/reset first/)
    expect(await everyGet(service)).toEqual(before)
  })

  it.skipIf(onPostgres)(
    'refuses a tampered archive, a foreign one, and a body that is not an archive, leaving the project as it was',
    async () => {
      const receiver = await startWebhookReceiver()
      const service = await startLiveService({ speechEngine: await sharedSpeechEngine() })
      await seedProject(service, receiver)
      const archive = await exportState(service)
      expect((await service.http('POST', '/_voicedesk/reset')).status).toBe(200)
      const emptyGets = await everyGet(service)

      // One agent's name changed inside rows.jsonl, the tar and gzip made whole again.
      const tar = gunzipSync(archive)
      const at = tar.indexOf('Front desk A')
      expect(at).toBeGreaterThan(0)
      const changed = Buffer.from(tar)
      changed.write('Front desk Z', at)
      const tampered = await errorOf(await importState(service, gzipSync(changed)))
      expect(tampered).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', paths: ['body'] })
      expect(tampered.message).toMatch(/rows\.jsonl does not match the manifest's digest/)

      const foreign = await errorOf(await importState(service, gzipSync(Buffer.from('just some text, not a tar'))))
      expect(foreign).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
      const notGzip = await errorOf(await importState(service, new TextEncoder().encode('plain bytes')))
      expect(notGzip.message).toMatch(/not a readable \.tar\.gz/)
      const asJson = await errorOf(await service.http('PUT', '/_voicedesk/state', { json: { not: 'an archive' } }))
      expect(asJson).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })
      expect(await everyGet(service)).toEqual(emptyGets)
      // Nothing written for the refused ones: the real archive still goes in.
      expect((await importState(service, archive)).status).toBe(200)
    },
  )

  it.skipIf(onPostgres)(
    'seals secrets under a passphrase: the round trip needs it, and a missing or wrong one is a 400',
    { timeout: 60_000 },
    async () => {
      const receiver = await startWebhookReceiver()
      const service = await startLiveService({ speechEngine: await sharedSpeechEngine() })
      await seedProject(service, receiver)
      const before = await everyGet(service)
      const archive = await exportState(service, 'correct horse battery staple')
      expect(Buffer.from(gunzipSync(archive)).includes('agent-secret-A-0001')).toBe(false)
      expect((await service.http('POST', '/_voicedesk/reset')).status).toBe(200)

      const missing = await errorOf(await importState(service, archive))
      expect(missing).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', paths: ['headers.x-voicedesk-passphrase'] })
      const wrong = await errorOf(await importState(service, archive, 'wrong horse battery staple'))
      expect(wrong).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' })
      expect(wrong.message).toMatch(/passphrase does not open/)
      const short = await errorOf(await service.http('GET', '/_voicedesk/state', { headers: { 'x-voicedesk-passphrase': 'short' } }))
      expect(short).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', paths: ['headers.x-voicedesk-passphrase'] })

      expect((await importState(service, archive, 'correct horse battery staple')).status).toBe(200)
      const after = await everyGet(service)
      for (const [request, answer] of before) expect(after.get(request), request).toBe(answer)
    },
  )
})

describe('snapshots', () => {
  it('take, list, restore after changes (the snapshot’s GETs come back), delete; names checked', { timeout: 60_000 }, async () => {
    const receiver = await startWebhookReceiver()
    const service = await startLiveService({ speechEngine: await sharedSpeechEngine() })
    await seedProject(service, receiver)
    const before = await everyGet(service)

    const taken = await service.http('POST', '/_voicedesk/snapshots', { json: { name: 'demo-1' } })
    expect(taken.status, await taken.clone().text()).toBe(201)
    const snapshot = ((await taken.json()) as { data: { name: string; sizeBytes: number; counts: Record<string, number> } }).data
    expect(snapshot).toMatchObject({ name: 'demo-1', counts: { agents: 2, jobs: 2 } })
    expect(snapshot.sizeBytes).toBeGreaterThan(100)
    expect(await errorOf(await service.http('POST', '/_voicedesk/snapshots', { json: { name: 'demo-1' } }))).toMatchObject({
      status: 409,
      code: 'CONFLICT',
    })
    expect(await errorOf(await service.http('POST', '/_voicedesk/snapshots', { json: { name: '../etc' } }))).toMatchObject({
      status: 400,
      paths: ['body.name'],
    })

    // Changes after the snapshot: a new agent, an agent renamed, a number removed.
    const agents = (await (await service.http('GET', '/v1/voice-agents?take=100')).json()) as { data: { voiceAgents?: { id: string }[] } }
    void agents
    await service.http('POST', '/v1/voice-agents', { json: { agentName: 'Added later' } })
    expect(await everyGet(service)).not.toEqual(before)

    const list = (await (await service.http('GET', '/_voicedesk/snapshots')).json()) as { data: { snapshots: { name: string }[] } }
    expect(list.data.snapshots.map((entry) => entry.name)).toEqual(['demo-1'])
    const restored = await service.http('POST', '/_voicedesk/snapshots/demo-1/restore')
    expect(restored.status, await restored.clone().text()).toBe(200)
    const after = await everyGet(service)
    for (const [request, answer] of before) expect(after.get(request), request).toBe(answer)
    expect([...after.keys()]).toEqual([...before.keys()])

    expect(await errorOf(await service.http('POST', '/_voicedesk/snapshots/nope/restore'))).toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    })
    expect((await service.http('DELETE', '/_voicedesk/snapshots/demo-1')).status).toBe(200)
    expect(await errorOf(await service.http('DELETE', '/_voicedesk/snapshots/demo-1'))).toMatchObject({ status: 404 })
  })

  it('a project sees its own snapshots and state only', async () => {
    const service = await startLiveService({ speechEngine: await sharedSpeechEngine() })
    const other = await service.otherProject()
    await service.http('POST', '/v1/voice-agents', { json: { agentName: 'Mine' } })
    expect((await service.http('POST', '/_voicedesk/snapshots', { json: { name: 'mine' } })).status).toBe(201)
    const theirs = (await (await service.http('GET', '/_voicedesk/snapshots', { key: other.key })).json()) as {
      data: { snapshots: unknown[] }
    }
    expect(theirs.data.snapshots).toEqual([])
    expect((await service.http('POST', '/_voicedesk/reset', { key: other.key })).status).toBe(200)
    const mine = (await (await service.http('GET', '/v1/voice-agents')).json()) as { data: unknown }
    expect(JSON.stringify(mine)).toContain('Mine')
    expect(await errorOf(await service.http('GET', '/_voicedesk/snapshots', { key: null }))).toMatchObject({ status: 401 })
  })
})

describe('restore while jobs run', () => {
  it(
    'gives the snapshot back whole: jobs of the newer timeline that were running write nothing after it',
    { timeout: 90_000 },
    async () => {
      const receiver = await startWebhookReceiver()
      const service = await startLiveService({ jobs: { concurrency: 2 }, speechEngine: await sharedSpeechEngine() })
      await seedProject(service, receiver)
      expect((await service.http('POST', '/_voicedesk/snapshots', { json: { name: 'before-load' } })).status).toBe(201)
      const before = await everyGet(service)

      // A burst of jobs with webhooks: some will be running, some waiting, when the restore lands.
      const queued: string[] = []
      for (let index = 0; index < 12; index += 1) {
        const response = await service.http('POST', '/v1/jobs/text-to-speech', {
          json: { voiceId: 'fe68337a-10d3-4648-99bb-2bb04554b6cf', text: `Load ${index} `.repeat(20), webhookUrl: `${receiver.url}/load` },
        })
        expect(response.status).toBe(200)
        queued.push(((await response.json()) as { data: { id: string } }).data.id)
      }
      const restored = await service.http('POST', '/_voicedesk/snapshots/before-load/restore')
      expect(restored.status, await restored.clone().text()).toBe(200)

      // Whatever was in flight ends now (its compare-and-swap loses): give it time, then every GET is the snapshot's.
      const deadline = Date.now() + 20_000
      while (Date.now() < deadline) {
        const { running, waiting } = await service.runtime.store.jobs.queueCounts()
        if (running === 0 && waiting === 0) break
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      await new Promise((resolve) => setTimeout(resolve, 300))
      const after = await everyGet(service)
      for (const [request, answer] of before) expect(after.get(request), request).toBe(answer)
      expect([...after.keys()]).toEqual([...before.keys()])
      for (const id of queued) expect((await service.http('GET', `/v1/jobs?jobId=${id}`)).status).toBe(404)
    },
  )
})

describe("the operator UI's one-use links", () => {
  it.skipIf(onPostgres)('download the archive once, and take an upload once, with no key; a second use is a 404', async () => {
    const receiver = await startWebhookReceiver()
    const service = await startLiveService({ speechEngine: await sharedSpeechEngine() })
    await seedProject(service, receiver)
    const handlers = service.runtime.operatorHandlers('browser')
    const before = await everyGet(service)
    const { url: exportUrl } = await handlers['state.exportLink']({})
    const download = await fetch(exportUrl)
    expect(download.status).toBe(200)
    const archive = new Uint8Array(await download.arrayBuffer())
    expect((await fetch(exportUrl)).status).toBe(404)

    await handlers['state.reset']({})
    const { url: importUrl } = await handlers['state.importLink']({})
    // A page of another origin (the desktop window's file://) may ask first.
    const preflight = await fetch(importUrl, { method: 'OPTIONS', headers: { origin: 'null', 'access-control-request-method': 'PUT' } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    const upload = await fetch(importUrl, { method: 'PUT', body: archive, headers: { 'content-type': 'application/gzip' } })
    expect(upload.status, await upload.clone().text()).toBe(200)
    expect((await fetch(importUrl, { method: 'PUT', body: archive, headers: { 'content-type': 'application/gzip' } })).status).toBe(404)
    const after = await everyGet(service)
    for (const [request, answer] of before) expect(after.get(request), request).toBe(answer)
  })
})

describe('an archive whose rows the store refuses', () => {
  it('is a 400 naming the row, and the media written for it are removed again', { timeout: 60_000 }, async () => {
    const receiver = await startWebhookReceiver()
    const service = await startLiveService({ speechEngine: await sharedSpeechEngine() })
    await seedProject(service, receiver)
    const archive = await exportState(service)
    expect((await service.http('POST', '/_voicedesk/reset')).status).toBe(200)
    const mediaNames = [
      ...Buffer.from(gunzipSync(archive))
        .toString('latin1')
        .matchAll(/"mediaFile":"([A-Za-z0-9_-]{32}\.wav)"/g),
    ].map((match) => match[1]!)
    expect(mediaNames.length).toBeGreaterThan(0)
    // The reset removed the jobs' media.
    for (const name of mediaNames) expect(await service.runtime.media.size(name)).toBeUndefined()

    // A row the store's schema refuses (an agent in a language there is none of), digests made right again.
    const bad = await withRows(archive, (rows) => rows.replace('"lang":"ar"', '"lang":"fr"'))
    const refused = await errorOf(await importState(service, bad))
    expect(refused).toMatchObject({ status: 400, code: 'VALIDATION_ERROR', paths: ['body'] })
    expect(refused.message).toMatch(/^rows\.jsonl: Row \d+ \(agent [0-9a-f-]{36}\): .*lang/)
    for (const name of mediaNames) expect(await service.runtime.media.size(name), name).toBeUndefined()
    const agents = (await (await service.http('GET', '/v1/voice-agents')).json()) as { data: { agents: unknown[] } }
    expect(agents.data.agents).toEqual([])
  })
})

describe('bad input to the state routes', () => {
  it.skipIf(onPostgres)('is answered in the envelope: no body, another type, a bad name, a bad passphrase header', async () => {
    const service = await startLiveService({ speechEngine: await sharedSpeechEngine() })
    expect(await errorOf(await service.http('PUT', '/_voicedesk/state'))).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' })
    expect(
      await errorOf(
        await service.http('PUT', '/_voicedesk/state', { body: new Uint8Array(0), headers: { 'content-type': 'application/gzip' } }),
      ),
    ).toMatchObject({
      status: 400,
    })
    expect(
      await errorOf(
        await service.http('PUT', '/_voicedesk/state', { body: new TextEncoder().encode('x'), headers: { 'content-type': 'text/plain' } }),
      ),
    ).toMatchObject({
      status: 415,
    })
    expect(await errorOf(await service.http('POST', '/_voicedesk/snapshots', { json: {} }))).toMatchObject({
      status: 400,
      paths: ['body.name'],
    })
    expect(await errorOf(await service.http('POST', '/_voicedesk/snapshots/a%20b/restore'))).toMatchObject({
      status: 400,
      paths: ['params.name'],
    })
    expect(await errorOf(await service.http('DELETE', `/_voicedesk/snapshots/${'x'.repeat(65)}`))).toMatchObject({ status: 400 })
    const long = await service.http('GET', '/_voicedesk/state', { headers: { 'x-voicedesk-passphrase': 'p'.repeat(2000) } })
    expect(await errorOf(long)).toMatchObject({ status: 400, paths: ['headers.x-voicedesk-passphrase'] })
  })
})
