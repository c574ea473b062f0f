/**
 * The SIP line under twenty calls at once: a real `voicedesk serve` child process (the build in
 * out/, `--sip-port 0`), one SIPp process dialling an assigned number twenty times together
 * (bench/sip/twenty-callers.xml), and, per call, a UDP socket of bench/sip/rtp-receiver.py as
 * the caller's media address: the kernel stamps every RTP packet the agent sends as it arrives
 * (SO_TIMESTAMPNS: exact however loaded the machine, which a JavaScript callback's clock is not),
 * and each is answered with 20 ms of quiet PCMU (the caller's side of the line). Per run it reports:
 * - first greeting packet: its arrival after the caller's 200 OK (SIPp's gettimeofday when the
 *   200 arrived, against the packet's wall-clock arrival; target < 500 ms; the service sends the
 *   200 with the greeting's first audio, so the packet follows within a tick: a negative delay
 *   means SIPp, short of CPU, read the 200 late);
 * - pacing: the inter-arrival of the agent's consecutive packets (sequence + 1, timestamp + 160),
 *   p50 / p99 / max and the share outside 20 ± 2 ms (target p99 within 20 ± 2 ms), over every
 *   call, and the worst call's p99; a new talk spurt (a gap in the audio: the marker bit) is
 *   counted apart, not as a late packet;
 * - lost calls: not answered, not ended by our BYE's 200 (the service hung up or the call
 *   failed), per SIPp's log and exit code (target none);
 * - the sender's own clock: how late the media thread's ticks ran after they were due (the
 *   service logs it at info level each time its last call closed), which tells a late sender
 *   from a late network or receiver;
 * - the machine's load average at the start and the end (2 cores, shared).
 * BENCH_SIP_NOT_REALTIME=1 adds the same build with VOICEDESK_SIP_REALTIME=off (its media thread at
 * nice -10 only, not SCHED_RR), which tells how much of the lateness is the thread waiting for a CPU.
 * BENCH_SIP_DUMP=<path prefix> writes each round's packets as the receiver stamped them
 * (<prefix>-<round>-receiver.json), to set beside a trace of the sender.
 * With BENCH_SIP_BASELINE_CLI=<other builds' out/main/cli.js, comma-separated> those builds run too,
 * in alternating rounds with this one: a before/after in one run.
 * Part of `npm run bench` (bench/run.ts, under `sip`); alone: `npx tsx bench/run.ts sip`.
 * The bench reports; it never fails on a target.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { ClockStats } from '../src/service/sip/media-plane'
import { percentile } from './jobs'
import { freePort, stopChild, waitForLine } from './processes'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(ROOT, 'out/main/cli.js')
const SCENARIO = join(ROOT, 'bench/sip/twenty-callers.xml')
const RECEIVER = join(ROOT, 'bench/sip/rtp-receiver.py')
const KEY = 'vd_bench_sip_0123456789abcdef0123456789'
const NUMBER = '+14155550142'
const CALLS = 20
/** Rounds per build: the first is not counted in the summary (the service's first calls), so three are. */
const ROUNDS = 4
/** How long each caller stays on after the answer before its BYE: the greeting plays out within it. */
const CALL_MS = 9_000
const PACKET_MS = 20
/** The agent's greeting: several sentences, about seven seconds of speech, so every call sends a few hundred packets. */
const GREETING =
  'Hello, and thank you for calling the front desk of the bench hotel. We are measuring how evenly this voice arrives, ' +
  'packet after packet, while twenty callers hear it at the same time. Please stay on the line for a few more seconds. ' +
  'This is the last sentence of the greeting.'

export const SIP_TARGETS = {
  pacingMs: 'p99 of the inter-arrival within 20 ± 2 ms',
  firstGreetingPacketMs: '< 500 ms after the 200 OK',
  lostCalls: 'none',
}

interface CallRecord {
  rtpPort: number
  /** Wall-clock ms (SIPp's gettimeofday) the 200 OK arrived. */
  answeredAt?: number
  ended: boolean
  /** Wall-clock ms of each agent packet's arrival, with its sequence, timestamp and marker. */
  packets: { at: number; sequence: number; timestamp: number; marker: boolean }[]
}

export interface SipRunResult {
  /** `current` (out/), or a baseline build named by its folder (BENCH_SIP_BASELINE_CLI). */
  build: string
  round: number
  loadAverage: { start: number; end: number }
  calls: number
  answered: number
  endedByOurBye: number
  lostCalls: number
  sippExitCode: number | null
  firstGreetingPacketMs: { p50: number; p99: number; max: number; over500: number }
  pacingMs: { p50: number; p99: number; max: number; outside18to22Percent: number; intervals: number; worstCallP99: number }
  packetsPerCall: { min: number; max: number }
  /** Gaps in an utterance's audio (a marker bit after the first packet): the sender had nothing queued. */
  talkSpurtsAfterFirst: number
  /**
   * The sending side's own clock, as the service logs it (sipMediaClock): how late its ticks ran
   * after they were due. Null for a build that does not log it (the baseline before this bench).
   */
  senderClock: ClockStats | null
}

/** Each build's rounds after the first (which includes the service's first calls: eSpeak's first synthesis, the media thread's start). */
interface BuildSummary {
  rounds: number
  lostCalls: number
  pacingP99Ms: number[]
  outside18to22Percent: number[]
  firstGreetingPacketP99Ms: number[]
  senderLatenessP99Ms: (number | null)[]
  /** How late after its tick's due time a tick's last packet had left (null for builds that do not log it). */
  senderSentP99Ms: (number | null)[]
  senderPriority: (string | null)[]
  loadAverage: number[]
}

function summaryByBuild(runs: SipRunResult[]): Record<string, BuildSummary> {
  const summary: Record<string, BuildSummary> = {}
  for (const run of runs.filter((each) => each.round > 1)) {
    const build = (summary[run.build] ??= {
      rounds: 0,
      lostCalls: 0,
      pacingP99Ms: [],
      outside18to22Percent: [],
      firstGreetingPacketP99Ms: [],
      senderLatenessP99Ms: [],
      senderSentP99Ms: [],
      senderPriority: [],
      loadAverage: [],
    })
    build.rounds += 1
    build.lostCalls += run.lostCalls
    build.pacingP99Ms.push(run.pacingMs.p99)
    build.outside18to22Percent.push(run.pacingMs.outside18to22Percent)
    build.firstGreetingPacketP99Ms.push(run.firstGreetingPacketMs.p99)
    build.senderLatenessP99Ms.push(run.senderClock?.latenessMs.p99 ?? null)
    build.senderSentP99Ms.push(run.senderClock?.sentMs?.p99 ?? null)
    build.senderPriority.push(run.senderClock?.priority ?? null)
    build.loadAverage.push(round1(run.loadAverage.start))
  }
  return summary
}

export interface SipBenchResult {
  setup: { calls: number; rounds: number; callMs: number; scenario: string; note: string }
  targets: typeof SIP_TARGETS
  summary: Record<string, BuildSummary>
  runs: SipRunResult[]
}

const round1 = (value: number) => Math.round(value * 10) / 10

interface Service {
  child: ChildProcess
  sipPort: number
  /** The service's own account of its packet clock (its log's sipMediaClock), the latest first. */
  clock: ClockStats[]
}

async function startService(cli: string, dataDir: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<Service> {
  const port = await freePort()
  const env: NodeJS.ProcessEnv = { ...process.env, VOICEDESK_API_KEY: KEY, ...extraEnv }
  delete env.VOICEDESK_SIP_PORT
  const args = ['serve', '--port', String(port), '--sip-port', '0', '--data-dir', dataDir, '--log-level', 'info']
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  const clock: ClockStats[] = []
  let pending = ''
  child.stderr.on('data', (chunk: Buffer) => {
    const lines = (pending + chunk.toString()).split('\n')
    pending = lines.pop()!
    for (const line of lines) {
      if (line.includes('"sipMediaClock"')) clock.unshift((JSON.parse(line) as { sipMediaClock: ClockStats }).sipMediaClock)
      else if (/"level":(40|50|60)/.test(line)) process.stderr.write(line + '\n')
    }
  })
  const [, sipPort] = await waitForLine(child, /call an assigned number at sip:<number>@127\.0\.0\.1:(\d+)/)
  const base = `http://127.0.0.1:${port}/v1`
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Token ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (response.status !== 200) throw new Error(`POST ${path}: ${response.status} ${await response.text()}`)
    return ((await response.json()) as { data: { id: string } }).data
  }
  const agent = await post('/voice-agents', {
    agentName: 'Bench desk',
    lang: 'en',
    greetingMessage: GREETING,
    preamble: 'You answer.',
    pokeMessages: [],
  })
  await post('/voice-agents/phone-number', {
    type: 'TELEPHONY',
    phoneNumber: NUMBER,
    label: 'Bench',
    providerAccountSid: 'AC1',
    providerAuthToken: 't',
  })
  await post('/voice-agents/assign-number', { voiceAgentId: agent.id, phoneNumber: NUMBER })
  return { child, sipPort: Number(sipPort), clock }
}

/** The callers' media sockets (bench/sip/rtp-receiver.py): their ports, then, once told to stop, every packet each heard. */
async function startReceiver(calls: number): Promise<{ ports: number[]; stop(): Promise<CallRecord['packets'][]> }> {
  const child = spawn('python3', [RECEIVER, String(calls)], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  const next = async () => {
    const line = await lines.next()
    if (line.done) throw new Error('The RTP receiver (python3 bench/sip/rtp-receiver.py) stopped early')
    return JSON.parse(line.value) as unknown
  }
  const ports = (await next()) as number[]
  return {
    ports,
    stop: async () => {
      child.stdin.end()
      const heard = (await next()) as [number, number, number, number][][]
      return heard.map((packets) =>
        packets.map(([ns, sequence, timestamp, marker]) => ({ at: ns / 1e6, sequence, timestamp, marker: marker === 1 })),
      )
    },
  }
}

async function oneRun(service: Service, build: SipRunResult['build'], roundIndex: number): Promise<SipRunResult> {
  const folder = mkdtempSync(join(tmpdir(), 'voicedesk-bench-sip-'))
  const receiver = await startReceiver(CALLS)
  const records: CallRecord[] = receiver.ports.map((rtpPort) => ({ rtpPort, ended: false, packets: [] }))
  const loadStart = loadavg()[0]!
  const clockBefore = service.clock.length
  try {
    writeFileSync(join(folder, 'ports.csv'), ['SEQUENTIAL', ...records.map((record) => `${record.rtpPort};`)].join('\n') + '\n')
    const logFile = join(folder, 'calls.log')
    const sipp = spawn(
      '/usr/bin/sipp',
      [
        ...['-sf', SCENARIO, '-inf', join(folder, 'ports.csv'), '-s', NUMBER, '-i', '127.0.0.1', '-mi', '127.0.0.1'],
        // Twenty calls, all started within 100 ms, twenty at once at most.
        ...['-m', String(CALLS), '-l', String(CALLS), '-r', String(CALLS), '-rp', '100', '-d', String(CALL_MS)],
        ...['-nostdin', '-timeout', '60s', '-timeout_error', '-trace_logs', '-log_file', logFile],
        ...['-trace_err', '-error_file', join(folder, 'errors.log'), `127.0.0.1:${service.sipPort}`],
      ],
      { cwd: folder, stdio: ['ignore', 'ignore', 'ignore'] },
    )
    const code = await new Promise<number | null>((resolve) => sipp.on('close', resolve))
    const heard = await receiver.stop()
    records.forEach((record, index) => (record.packets = heard[index] ?? []))
    if (process.env.BENCH_SIP_DUMP)
      writeFileSync(`${process.env.BENCH_SIP_DUMP}-${build.replace(/\W+/g, '_')}-${roundIndex}-receiver.json`, JSON.stringify(records))
    // The service logs its clock once its last call closed.
    for (let waited = 0; service.clock.length === clockBefore && waited < 3_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50))
    const senderClock = service.clock.length > clockBefore ? service.clock[0] : undefined
    const byPort = new Map(records.map((record) => [record.rtpPort, record]))
    const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : ''
    for (const [, port, seconds, micros] of log.matchAll(/answered (\d+) ([\d.]+) ([\d.]+)/g)) {
      const record = byPort.get(Number(port))
      if (record) record.answeredAt = Number(seconds) * 1000 + Number(micros) / 1000
    }
    for (const [, port] of log.matchAll(/ended (\d+)/g)) {
      const record = byPort.get(Number(port))
      if (record) record.ended = true
    }
    return {
      ...summarize(records, build, roundIndex),
      sippExitCode: code,
      loadAverage: { start: loadStart, end: loadavg()[0]! },
      senderClock: senderClock ?? null,
    }
  } finally {
    rmSync(folder, { recursive: true, force: true })
  }
}

function summarize(records: CallRecord[], build: SipRunResult['build'], roundIndex: number) {
  const firsts: number[] = []
  const intervals: number[] = []
  const callP99s: number[] = []
  let spurts = 0
  for (const record of records) {
    const first = record.packets[0]
    if (first && record.answeredAt !== undefined) firsts.push(first.at - record.answeredAt)
    const own: number[] = []
    for (let index = 1; index < record.packets.length; index += 1) {
      const previous = record.packets[index - 1]!
      const packet = record.packets[index]!
      if (packet.marker) spurts += 1
      const consecutive = packet.sequence === ((previous.sequence + 1) & 0xffff) && packet.timestamp === (previous.timestamp + 160) >>> 0
      if (consecutive && !packet.marker) own.push(packet.at - previous.at)
    }
    intervals.push(...own)
    if (own.length > 0) callP99s.push(percentile(own, 99))
  }
  const stats = (values: number[]) =>
    values.length === 0
      ? { p50: NaN, p99: NaN, max: NaN }
      : { p50: round1(percentile(values, 50)), p99: round1(percentile(values, 99)), max: round1(Math.max(...values)) }
  const answered = records.filter((record) => record.answeredAt !== undefined).length
  const ended = records.filter((record) => record.ended).length
  const outside = intervals.filter((gap) => Math.abs(gap - PACKET_MS) > 2).length
  const counts = records.map((record) => record.packets.length)
  return {
    build,
    round: roundIndex,
    calls: records.length,
    answered,
    endedByOurBye: ended,
    lostCalls: records.filter((record) => record.answeredAt === undefined || !record.ended).length,
    firstGreetingPacketMs: { ...stats(firsts), over500: firsts.filter((delay) => delay >= 500).length },
    pacingMs: {
      ...stats(intervals),
      outside18to22Percent: intervals.length === 0 ? NaN : round1((100 * outside) / intervals.length),
      intervals: intervals.length,
      worstCallP99: callP99s.length === 0 ? NaN : round1(Math.max(...callP99s)),
    },
    packetsPerCall: { min: Math.min(...counts), max: Math.max(...counts) },
    talkSpurtsAfterFirst: spurts,
  }
}

export async function benchSip(): Promise<SipBenchResult> {
  if (!existsSync(CLI)) throw new Error('No build in out/: run `npx electron-vite build` first (npm run bench does)')
  if (!existsSync('/usr/bin/sipp')) throw new Error('SIPp is missing: install Debian’s sip-tester (npm test’s ensure-test-tools does)')
  if (spawnSync('python3', ['--version']).status !== 0)
    throw new Error('python3 is missing: the bench’s RTP receiver (bench/sip/rtp-receiver.py) needs it')
  const baselineClis = (process.env.BENCH_SIP_BASELINE_CLI ?? '').split(',').filter(Boolean)
  const workDir = mkdtempSync(join(tmpdir(), 'voicedesk-bench-sip-data-'))
  const services: { build: string; service: Service }[] = []
  try {
    services.push({ build: 'current', service: await startService(CLI, join(workDir, 'current')) })
    if (process.env.BENCH_SIP_NOT_REALTIME === '1') {
      // The experiment: the same build, its media thread left in the CPU's fair sharing (nice -10 at most).
      services.push({
        build: 'current, VOICEDESK_SIP_REALTIME=off',
        service: await startService(CLI, join(workDir, 'not-realtime'), { VOICEDESK_SIP_REALTIME: 'off' }),
      })
    }
    for (const [index, cli] of baselineClis.entries()) {
      // .bench-baseline/out/main/cli.js → "baseline .bench-baseline"
      const build = `baseline ${basename(dirname(dirname(dirname(cli))))}`
      services.push({ build, service: await startService(cli, join(workDir, `baseline-${index}`)) })
    }
    // Round 1 is each service's first calls (eSpeak's first synthesis, the media thread's start).
    const runs: SipRunResult[] = []
    for (let index = 0; index < ROUNDS; index += 1) {
      for (const { build, service } of index % 2 === 0 ? services : [...services].reverse()) {
        const run = await oneRun(service, build, index + 1)
        console.log('sip run', JSON.stringify(run))
        runs.push(run)
      }
    }
    return {
      setup: {
        calls: CALLS,
        rounds: ROUNDS,
        callMs: CALL_MS,
        scenario: 'bench/sip/twenty-callers.xml',
        note:
          'One SIPp process starts all twenty calls within 100 ms; each call offers a socket of bench/sip/rtp-receiver.py as its media address, where the kernel stamps the agent’s RTP on arrival (SO_TIMESTAMPNS) and quiet PCMU is played back. ' +
          (baselineClis.length > 0
            ? `Baseline builds: ${baselineClis.join(', ')}, in alternating rounds.`
            : 'No baseline build (BENCH_SIP_BASELINE_CLI unset).'),
      },
      targets: SIP_TARGETS,
      summary: summaryByBuild(runs),
      runs,
    }
  } finally {
    for (const { service } of services) await stopChild(service.child)
    rmSync(workDir, { recursive: true, force: true })
  }
}
