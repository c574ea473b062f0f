/**
 * Uploads, measured in process against a real runtime over a real socket on 127.0.0.1: a
 * 300 MB multipart upload made by a generator as it is sent, streamed by readMediaUpload into
 * the media store (files in a data folder; then chunks in PostgreSQL when its binaries are
 * here). The figure that matters is memory: the process's RSS may grow by no more than 50 MB
 * (target) however large the upload, as the file is never held whole. Also MB/s, for scale.
 * `npx tsx bench/run.ts upload` merges it into bench/results/latest.json; standalone:
 * `npx tsx bench/upload.ts` prints JSON.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { z } from 'zod'
import { apiKeyGate } from '../src/service/http/auth'
import { registerRequestGates } from '../src/service/http/request-gates'
import { readMediaUpload } from '../src/service/http/media-upload'
import { ApiKeyAuthenticator } from '../src/service/ops/api-keys'
import { createRuntime, type RuntimeConfig } from '../src/service/runtime'
import { postMultipart } from '../test/helpers/multipart-upload'
import { startBenchCluster } from './postgres'

const KEY = 'vd_bench_upload_0123456789abcdef0123456'
const UPLOAD_BYTES = 300 * 1000 * 1000
const PIECE = 64 * 1024

export interface UploadRun {
  bytes: number
  seconds: number
  megabytesPerSecond: number
  /** Highest RSS seen while uploading, less the RSS before (MB). */
  rssGrowthMb: number
}

export interface UploadBenchResult {
  files: UploadRun
  postgres: UploadRun | { skipped: string }
  target: string
}

/** The file's bytes, made as they are sent. */
async function* randomFile(total: number): AsyncGenerator<Buffer> {
  const piece = randomBytes(PIECE)
  for (let sent = 0; sent < total; sent += PIECE) yield Buffer.from(piece.subarray(0, Math.min(PIECE, total - sent)))
}

async function measure(config: Partial<RuntimeConfig>): Promise<UploadRun> {
  const dataDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-upload-'))
  const runtime = await createRuntime({ dataDir, fixedApiKey: KEY, port: 0, host: '127.0.0.1', ...config })
  try {
    await runtime.app.register(
      async (v1) => {
        registerRequestGates(v1, [apiKeyGate(new ApiKeyAuthenticator(runtime.context, () => undefined))])
        v1.post('/bench-upload', { config: { mediaUpload: true } }, (request, reply) =>
          readMediaUpload(request, reply, {
            fields: z.object({ title: z.string() }),
            media: runtime.media,
            name: `${randomUUID()}.mp4`,
            maxBytes: 2 * 1024 ** 3,
            pace: runtime.context.mediaIntake,
          }),
        )
      },
      { prefix: '/v1' },
    )
    const port = Number(new URL(await runtime.start()).port)
    global.gc?.()
    const before = process.memoryUsage.rss()
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 20)
    const started = performance.now()
    const answer = await postMultipart(`http://127.0.0.1:${port}/v1/bench-upload`, {
      headers: { authorization: `Token ${KEY}` },
      fields: { title: 'Bench' },
      file: { name: 'long.mp4', type: 'video/mp4', body: randomFile(UPLOAD_BYTES) },
    })
    if (answer.status !== 200) throw new Error(`upload answered ${answer.status}: ${answer.text}`)
    const seconds = (performance.now() - started) / 1000
    clearInterval(sampler)
    const size = (JSON.parse(answer.text) as { file: { size: number } }).file.size
    if (size !== UPLOAD_BYTES) throw new Error(`stored ${size} bytes, not ${UPLOAD_BYTES}`)
    return {
      bytes: size,
      seconds: Math.round(seconds * 100) / 100,
      megabytesPerSecond: Math.round(size / 1e6 / seconds),
      rssGrowthMb: Math.round(((peak - before) / 1e6) * 10) / 10,
    }
  } finally {
    await runtime.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export async function benchUpload(): Promise<UploadBenchResult> {
  const files = await measure({})
  const started = await startBenchCluster()
  let postgres: UploadRun | { skipped: string }
  if ('skipped' in started) postgres = started
  else {
    try {
      postgres = await measure({ database: { url: await started.cluster.createDatabase() }, secretKey: randomBytes(32) })
    } finally {
      await started.cluster.stop()
    }
  }
  return { files, postgres, target: 'rssGrowthMb < 50 for a 300 MB upload' }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(JSON.stringify(await benchUpload(), null, 2))
