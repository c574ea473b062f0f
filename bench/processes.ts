/** Child processes of the benchmarks: a free port, a line a child prints, and its end. */
import type { ChildProcess } from 'node:child_process'
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
