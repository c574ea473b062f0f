import { join } from 'node:path'
import { vi } from 'vitest'
import { main } from '../../src/service/cli/main'
import { ROOT } from './spawn-cli'

export interface Outcome {
  code: number
  stdout: string
  stderr: string
}

/**
 * One command line through src/service/cli/main.ts in-process, as the bundle calls it, with what
 * it writes kept instead of printed: a second of Node start-up cheaper than spawning the bundle.
 */
export async function runMain(args: string[]): Promise<Outcome> {
  let stdout = ''
  let stderr = ''
  const keep =
    (append: (text: string) => void) =>
    (chunk: string | Uint8Array): boolean => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
      return true
    }
  const outSpy = vi.spyOn(process.stdout, 'write').mockImplementation(keep((text) => (stdout += text)))
  const errSpy = vi.spyOn(process.stderr, 'write').mockImplementation(keep((text) => (stderr += text)))
  try {
    const code = await main(args, { rendererDir: join(ROOT, 'out', 'renderer') })
    return { code, stdout, stderr }
  } finally {
    outSpy.mockRestore()
    errSpy.mockRestore()
  }
}
