/** Child processes of the benchmarks: a free port, a line a child prints, and its end. */
import type { ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
    server.on('error', reject)
  })
}

export function waitForLine(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let output = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = output.match(pattern)
      if (match) resolve(match)
    })
    child.on('exit', (code) => reject(new Error(`exited with ${code} before printing ${pattern}: ${output}`)))
  })
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

/** CPU time a process used so far (user + system), in ms, from /proc; undefined where there is none (not Linux). */
export function cpuTimeMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th, in clock ticks (100 per second on Linux).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) * 10
  } catch {
    return undefined
  }
}

/** Busy CPU time of the whole machine so far (every process, kernel included), in ms, from /proc/stat; undefined where there is none. */
function machineBusyMs(): number | undefined {
  try {
    // The first line sums every core: user nice system idle iowait irq softirq steal …, in clock ticks.
    const [user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n')[0]!
      .trim()
      .split(/\s+/)
      .slice(1)
      .map(Number)
    return ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) * 10
  } catch {
    return undefined
  }
}

/**
 * Runs `work` and answers, beside its result, how many cores the machine spent meanwhile on
 * anything but `pids` and this process (the load generator runs in it): other programs, or
 * their kernel work. A round where that is more than a sliver measured the neighbours too.
 */
export async function withOthersCores<T>(
  pids: (number | undefined)[],
  work: () => Promise<T>,
): Promise<{ result: T; othersCores?: number }> {
  const ours = () =>
    [process.pid, ...pids].reduce<number | undefined>((sum, pid) => {
      const used = cpuTimeMs(pid)
      return sum === undefined || used === undefined ? undefined : sum + used
    }, 0)
  const busyBefore = machineBusyMs()
  const oursBefore = ours()
  const started = performance.now()
  const result = await work()
  const elapsedMs = performance.now() - started
  const busyAfter = machineBusyMs()
  const oursAfter = ours()
  if (busyBefore === undefined || busyAfter === undefined || oursBefore === undefined || oursAfter === undefined) return { result }
  const othersMs = Math.max(0, busyAfter - busyBefore - (oursAfter - oursBefore))
  return { result, othersCores: Math.round((othersMs / elapsedMs) * 100) / 100 }
}
