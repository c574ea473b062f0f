/**
 * What each hook on the request path costs: the GET of an agent (journal on, the default)
 * under the same load as the journal part, profiled through the served process's inspector
 * for one round, every sample given to the outermost piece of the service on its stack (the
 * Host check, the key check, CORS, …), or, when none, to Fastify or to Node's HTTP and socket
 * work. The service is the built one (out/main/cli.js): its bundle names each source file in a
 * `// src/…` line, which is how a sample's function is traced back to its file. Figures are µs
 * of CPU per request under the profiler (which adds its own share), to compare with each
 * other and with the whole; `cpuUsPerRequest` in the journal part is the unprofiled total.
 * A sample's time is wall-clock time: on a shared machine the process is often descheduled
 * between two samples, which inflates every figure alike. So each is also given scaled to the
 * CPU time the process really spent meanwhile (from /proc): `cpuUsPerRequest`.
 */
import autocannon from 'autocannon'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'
import { cpuTimeMs, freePort, stopChild, waitForLine } from './processes'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

/** The pieces of the request path, by source file (the first match wins). */
const PIECES: [RegExp, string][] = [
  [/service\/http\/(host-check|host-allow-list)\.ts$/, 'host check'],
  [/service\/http\/request-gates\.ts$/, 'gate runner (the checks of a scope in one hook)'],
  [/service\/http\/auth\.ts$/, 'auth (key check, cached caller)'],
  [/service\/http\/cors\.ts$/, 'CORS'],
  [/service\/http\/fault-injection\.ts$/, 'faults'],
  [/service\/http\/repeated-query-check\.ts$/, 'repeated-query check'],
  [/service\/http\/disk-full-gate\.ts$/, 'disk-full gate'],
  [/service\/http\/request-journal-capture\.ts$/, 'journal capture (request path: references only)'],
  [/service\/http\/web-sockets\.ts$/, 'WebSocket upgrade gate'],
  [/service\/http\/media-upload\.ts$/, 'multipart refusal (preValidation)'],
  [/store\/sqlite\/store\.ts$/, "the store's change version (both caches)"],
  [/service\/http\/routes\/v1\/voice-agents\.ts$|service\/ops\/voice-agents\.ts$/, 'handler (cached answer bytes: no serialisation)'],
  [/service\/http\/(error-handler|empty-body|json-body-parser)\.ts$/, 'error handler and body parsers'],
]

/** The journal's batch: it builds the captured entries (redacting them) and appends them, on a timer. */
const JOURNAL_BATCH = /service\/request-journal\/request-journal\.ts$/
const JOURNAL_BATCH_PIECE = 'journal batch (build, redact, append: off the request path)'

/** Each line of a bundle to the source file its `// src/…` marker names. */
function sourceLines(file: string): string[] {
  const lines = readFileSync(file, 'utf8').split('\n')
  const owners: string[] = []
  let current = ''
  for (const line of lines) {
    const marker = /^\/\/ (src\/\S+\.tsx?)$/.exec(line)
    if (marker) current = marker[1]!
    owners.push(current)
  }
  return owners
}

/**
 * Where a sample's time goes, walking its stack from the leaf up: the journal's batch when it
 * is anywhere on the stack (it runs on a timer); else the first service piece met (its callees
 * in the store or a driver count with it), unless Node's HTTP and socket work or Fastify is met
 * first (a hook that sends calls into both: the send is theirs, not the hook's).
 */
export function attribute(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const bundles = new Map<string, string[]>()
  const sourceOf = (frame: ProfileNode['callFrame']): string => {
    if (!frame.url.includes('/out/main/')) return ''
    const file = fileURLToPath(frame.url)
    let owners = bundles.get(file)
    if (!owners) bundles.set(file, (owners = sourceLines(file)))
    return owners[frame.lineNumber] ?? ''
  }
  const stackOf = (leafId: number) => {
    const frames: ProfileNode['callFrame'][] = []
    for (let id: number | undefined = leafId; id !== undefined; id = parent.get(id)) frames.push(byId.get(id)!.callFrame)
    return frames
  }
  const classify = (leafId: number): string => {
    const stack = stackOf(leafId)
    const leaf = stack[0]!.functionName
    if (leaf === '(garbage collector)') return 'garbage collector'
    if (leaf === '(program)') return 'V8 (program)'
    if (stack.some((frame) => JOURNAL_BATCH.test(sourceOf(frame)))) return JOURNAL_BATCH_PIECE
    for (const frame of stack) {
      const source = sourceOf(frame)
      const piece = source ? PIECES.find(([pattern]) => pattern.test(source))?.[1] : undefined
      if (piece) return piece
      if (frame.url.startsWith('node:')) return "Node's HTTP parser and socket writes"
      if (frame.url.includes('@fastify/websocket')) return '@fastify/websocket (upgrades only)'
      if (/node_modules\/(fastify|find-my-way|avvio|light-my-request|@fastify)\//.test(frame.url))
        return 'Fastify (routing, hook runner, reply)'
    }
    return 'other service code'
  }
  const pieceOf = new Map<number, string>()
  const totals = new Map<string, number>()
  profile.samples.forEach((id, index) => {
    if (byId.get(id)!.callFrame.functionName === '(idle)') return
    let piece = pieceOf.get(id)
    if (piece === undefined) pieceOf.set(id, (piece = classify(id)))
    totals.set(piece, (totals.get(piece) ?? 0) + (profile.timeDeltas[index] ?? 0))
  })
  return totals
}

/** One request to the inspector of the served process. */
function inspectorSession(url: string): Promise<{ send(method: string, params?: object): Promise<unknown>; close(): void }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url)
    let nextId = 1
    const waiting = new Map<number, (result: unknown) => void>()
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown }
      if (message.id !== undefined) waiting.get(message.id)?.(message.result)
    })
    socket.once('error', reject)
    socket.once('open', () =>
      resolve({
        send: (method, params = {}) =>
          new Promise((answered) => {
            const id = nextId++
            waiting.set(id, answered)
            socket.send(JSON.stringify({ id, method, params }))
          }),
        close: () => socket.close(),
      }),
    )
  })
}

/** The frames with the most self time (where the CPU was when sampled), by function and place. */
export function topSelfFrames(profile: Profile, count: number): [string, number][] {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const totals = new Map<string, number>()
  profile.samples.forEach((id, index) => {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame
    if (functionName === '(idle)') return
    const place = url.replace(/^.*\/node_modules\//, '').replace(/^.*\/out\/main\/(chunks\/)?/, 'out/')
    const name = `${functionName || '(anonymous)'}${place ? ` ${place}:${lineNumber + 1}` : ''}`
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0))
  })
  return [...totals].sort((a, b) => b[1] - a[1]).slice(0, count)
}

export interface HotPathOptions {
  cli: string
  key: string
  connections: number
  seconds: number
  /** Clones an agent through the API and answers its URL. */
  agent: (base: string, headers: Record<string, string>) => Promise<{ agentUrl: string }>
}

export async function benchHotPath(options: HotPathOptions): Promise<object> {
  const workDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-hot-path-'))
  const port = await freePort()
  const child = spawn(
    process.execPath,
    ['--inspect=127.0.0.1:0', options.cli, 'serve', '--port', String(port), '--data-dir', join(workDir, 'data')],
    {
      env: { ...process.env, VOICEDESK_API_KEY: options.key },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  try {
    const inspectorUrl = await new Promise<string>((resolve, reject) => {
      let errors = ''
      child.stderr.on('data', (chunk: Buffer) => {
        errors += chunk.toString()
        const match = /Debugger listening on (ws:\/\/\S+)/.exec(errors)
        if (match) resolve(match[1]!)
      })
      child.once('exit', () => reject(new Error(`exited before its inspector listened: ${errors}`)))
    })
    await waitForLine(child, /listening on (http:\/\/\S+)/)
    const headers = { authorization: `Token ${options.key}` }
    const { agentUrl } = await options.agent(`http://127.0.0.1:${port}`, headers)
    const load = () => autocannon({ url: agentUrl, headers, connections: options.connections, duration: options.seconds, pipelining: 1 })
    await load() // warm-up, not profiled
    const inspector = await inspectorSession(inspectorUrl)
    await inspector.send('Profiler.enable')
    await inspector.send('Profiler.setSamplingInterval', { interval: 200 })
    await inspector.send('Profiler.start')
    const cpuBefore = cpuTimeMs(child.pid)
    const result = await load()
    const cpuAfter = cpuTimeMs(child.pid)
    const { profile } = (await inspector.send('Profiler.stop')) as { profile: Profile }
    inspector.close()
    if (result.errors || result.non2xx) throw new Error(`hot path: ${result.non2xx} non-2xx and ${result.errors} errors`)
    const requests = result.requests.total
    const totals = attribute(profile)
    const busyUs = [...totals.values()].reduce((sum, value) => sum + value, 0)
    const perRequest = (us: number) => Math.round((us / requests) * 100) / 100
    // Wall-clock samples to CPU time: the share each piece had of the busy samples, of the CPU the process spent.
    const cpuUs = cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) * 1000
    const toCpu = (us: number) => (cpuUs === undefined ? undefined : perRequest((us / busyUs) * cpuUs))
    return {
      method: `GET /v1/voice-agents/{id}, journal on, ${options.connections} connections for ${options.seconds} s after a warm-up, profiled (200 µs sampling) through the inspector; each sample to the outermost service piece on its stack`,
      requests,
      requestsPerSecondProfiled: Math.round(result.requests.average),
      busyUsPerRequest: perRequest(busyUs),
      usPerRequest: Object.fromEntries([...totals].sort((a, b) => b[1] - a[1]).map(([piece, us]) => [piece, perRequest(us)])),
      cpuUsPerRequest: cpuUs === undefined ? null : perRequest(cpuUs),
      cpuUsPerRequestByPiece: Object.fromEntries([...totals].sort((a, b) => b[1] - a[1]).map(([piece, us]) => [piece, toCpu(us)])),
      topSelfFramesCpuUsPerRequest: Object.fromEntries(topSelfFrames(profile, 25).map(([frame, us]) => [frame, toCpu(us)])),
      note: "Fastify's share includes running each hook (a promise per async hook); a callback hook that answers at once costs its function's time only. Node's share includes the socket writes (writev), which the bare ceiling pays too.",
    }
  } finally {
    await stopChild(child)
    rmSync(workDir, { recursive: true, force: true })
  }
}
