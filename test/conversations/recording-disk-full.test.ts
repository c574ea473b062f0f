import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { ConversationEnvelopeSchema } from '../../src/shared/api/conversations'
import { WAV_HEADER_BYTES } from '../../src/engines/tts/wav-encoding'
import { SdkCallClient } from '../helpers/sdk-call-client'
import { fillDisk, mountProblem, smallDisk, unmountSmallDisks } from '../helpers/small-disk'
import { onPostgres } from '../helpers/test-engine'
import { startTestService, type TestService } from '../helpers/test-service'

/*
 * Calls that end while the data disk is full (a real tmpfs, filled to the last byte, under a
 * real service on 127.0.0.1 with real SDK sockets): the recording waits in memory and is stored
 * once there is room, byte for byte; one that does not fit in what may wait is said lost. The
 * SQLite project only: in team mode the data is on the database server's disk, which this test
 * cannot fill (the storage contract covers the state's column on both engines).
 */
const problem = onPostgres ? 'team mode keeps media on the database server' : mountProblem()
if (problem) console.warn(`recording disk-full tests skipped: ${problem}`)

const SECOND = 16_000
/** 72 s of recording: 2.3 MB, more than the room left on the disk (2 MiB), less than what may wait (3 MiB). */
const CALL_SECONDS = 72
const MiB = 1024 * 1024

const services: TestService[] = []
const clients: SdkCallClient[] = []
afterEach(async () => {
  for (const client of clients.splice(0)) client.close()
  // The service before the disk: a tmpfs with open files cannot be unmounted.
  for (const service of services.splice(0)) await service.runtime.stop()
  unmountSmallDisks()
})

async function conversation(service: TestService, jobId: string) {
  return ConversationEnvelopeSchema.parse((await service.call('GET', `/v1/voice-agents/conversation/${jobId}`)).json()).data
}

/** A call that has heard its greeting, then CALL_SECONDS of exact silence sent at once (so the agent's voice is all the recording holds). */
async function callWithLongSilence(
  service: TestService,
  baseUrl: string,
  agentId: string,
): Promise<{ jobId: string; client: SdkCallClient }> {
  const init = await service.call('POST', '/v1/voice-agents/conversation-init', { body: { voiceAgentId: agentId } })
  const { jobId } = init.json<{ data: { jobId: string } }>().data
  const client = await SdkCallClient.connect(baseUrl, jobId, service.key)
  clients.push(client)
  await client.nth('mark', 1, 15_000)
  const halfSecond = Buffer.alloc((SECOND / 2) * 4).toString('base64') // Float32 zeros, within a media frame's 64 KiB
  for (let index = 0; index < CALL_SECONDS * 2; index += 1)
    client.send({ event: 'media', streamSid: 'WEBSDK', media: { payload: halfSecond } })
  return { jobId, client }
}

async function startOnSmallDisk(
  disk: string,
  heldRecordingBytes: number,
): Promise<{ service: TestService; baseUrl: string; agentId: string }> {
  const service = await startTestService({
    dataDir: join(disk, 'data'),
    port: 0,
    journal: { enabled: false },
    sttEngine: null,
    // Room is back at 4 MiB free (more than the test leaves), looked for every 50 to 200 ms: the test waits no longer than it must.
    diskFull: { minFreeBytes: 4 * MiB, firstCheckMs: 50, maxCheckMs: 200 },
    calls: { heldRecordingBytes },
  })
  services.push(service)
  const baseUrl = (await service.runtime.start()).replace('localhost', '127.0.0.1')
  const agent = await service.call('POST', '/v1/voice-agents', {
    body: { agentName: 'Front desk', greetingMessage: 'Hello, front desk.', pokeMessages: [] },
  })
  return { service, baseUrl, agentId: agent.json<{ data: { id: string } }>().data.id }
}

/** Fills the disk but for `leftBytes`. */
function fillBut(disk: string, leftBytes: number): string {
  const reserve = join(disk, 'reserve.bin')
  writeFileSync(reserve, Buffer.alloc(leftBytes))
  const filler = join(disk, 'filler.bin')
  fillDisk(filler)
  rmSync(reserve)
  return filler
}

/** The recording at `url`, checked: a WAV of at least the call's length that holds the agent's voice as `client` heard it. */
async function expectRecordingOf(url: string | null, client: SdkCallClient): Promise<void> {
  expect(url).toMatch(/\/media\/.+\.wav$/)
  const response = await fetch(url!)
  expect(response.status).toBe(200)
  const wav = Buffer.from(await response.arrayBuffer())
  expect(wav.subarray(0, 4).toString()).toBe('RIFF')
  const samples = new Int16Array(wav.buffer.slice(wav.byteOffset + WAV_HEADER_BYTES, wav.byteOffset + wav.length))
  expect(samples.length).toBeGreaterThanOrEqual(CALL_SECONDS * SECOND)
  const greeting = Int16Array.from(client.agentAudio.flatMap((chunk) => [...chunk]).slice(0, SECOND / 2))
  expect(greeting.some((sample) => sample !== 0)).toBe(true)
  expect(indexOfSamples(samples, greeting)).toBeGreaterThanOrEqual(0)
}

/** Where `needle` starts in `haystack`, or -1. */
function indexOfSamples(haystack: Int16Array, needle: Int16Array): number {
  outer: for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    for (let index = 0; index < needle.length; index += 1) if (haystack[start + index] !== needle[index]) continue outer
    return start
  }
  return -1
}

describe.skipIf(problem !== undefined)('a call that ends on a full disk', () => {
  it(
    'keeps its recording until there is room, then stores it; one more than may wait is said lost, never a 404',
    { timeout: 120_000 },
    async () => {
      const disk = smallDisk(32)
      // One 72 s recording may wait, not two.
      const { service, baseUrl, agentId } = await startOnSmallDisk(disk, 3 * MiB)
      const first = await callWithLongSilence(service, baseUrl, agentId)
      const second = await callWithLongSilence(service, baseUrl, agentId)
      await expect
        .poll(async () => (await conversation(service, second.jobId)).transcript.length, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(1)

      // 2 MiB left: the database's small writes fit, a 2.3 MB recording does not.
      const filler = fillBut(disk, 2 * MiB)
      await first.client.hangUp()
      await expect.poll(async () => (await conversation(service, first.jobId)).status, { timeout: 15_000 }).toBe('COMPLETED')
      expect(await conversation(service, first.jobId)).toMatchObject({ recording: 'waiting: disk full', recordingUrl: null })
      await second.client.hangUp()
      await expect.poll(async () => (await conversation(service, second.jobId)).status, { timeout: 15_000 }).toBe('COMPLETED')
      expect(await conversation(service, second.jobId)).toMatchObject({ recording: 'lost: disk full', recordingUrl: null })
      // While the disk is full, /v1 writes are refused as for jobs.
      expect((await service.call('POST', '/v1/voice-agents', { body: { agentName: 'No room' } })).statusCode).toBe(507)

      rmSync(filler)
      await expect.poll(async () => (await conversation(service, first.jobId)).recording, { timeout: 15_000 }).toBe('stored')
      await expectRecordingOf((await conversation(service, first.jobId)).recordingUrl, first.client)
      // The one that did not fit stays lost, and says so.
      expect(await conversation(service, second.jobId)).toMatchObject({ recording: 'lost: disk full', recordingUrl: null })
    },
  )

  it(
    'writes the end of a call once there is room when not even the database can write, recording and all',
    { timeout: 120_000 },
    async () => {
      const disk = smallDisk(32)
      const { service, baseUrl, agentId } = await startOnSmallDisk(disk, 3 * MiB)
      const call = await callWithLongSilence(service, baseUrl, agentId)
      await expect
        .poll(async () => (await conversation(service, call.jobId)).transcript.length, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(1)

      const filler = fillBut(disk, 0)
      await call.client.hangUp()
      // Neither ended nor failed while there is no room: the end waits, as a job's would.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect(await conversation(service, call.jobId)).toMatchObject({ status: 'IN_PROGRESS', recordingUrl: null })

      rmSync(filler)
      await expect.poll(async () => (await conversation(service, call.jobId)).recording, { timeout: 15_000 }).toBe('stored')
      const ended = await conversation(service, call.jobId)
      expect(ended).toMatchObject({ status: 'COMPLETED', endReason: 'caller-hangup' })
      await expectRecordingOf(ended.recordingUrl, call.client)
    },
  )

  it('says a recording still waiting when the service stops is lost, after one more try', { timeout: 120_000 }, async () => {
    const disk = smallDisk(32)
    const { service, baseUrl, agentId } = await startOnSmallDisk(disk, 3 * MiB)
    const call = await callWithLongSilence(service, baseUrl, agentId)
    await expect
      .poll(async () => (await conversation(service, call.jobId)).transcript.length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(1)
    fillBut(disk, 2 * MiB)
    await call.client.hangUp()
    await expect.poll(async () => (await conversation(service, call.jobId)).recording, { timeout: 15_000 }).toBe('waiting: disk full')

    await service.runtime.stop()
    const again = await startTestService({ dataDir: service.dataDir, journal: { enabled: false } })
    services.push(again)
    expect(await conversation(again, call.jobId)).toMatchObject({ status: 'COMPLETED', recording: 'lost: disk full', recordingUrl: null })
  })
})
