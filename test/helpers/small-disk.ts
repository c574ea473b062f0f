/**
 * A real full disk for tests: a small tmpfs mounted on a temp folder, and a file that fills it
 * to the last byte. Needs mount(8) with the right to mount (root here); `mountProblem` says why
 * not, so a test can skip with the reason printed. Mounts are undone by `unmountSmallDisks`
 * (after the processes that hold files on them are gone).
 */
import { execFileSync } from 'node:child_process'
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { makeTempDir } from './temp-dir'

const mounts: string[] = []

/** Why a tmpfs cannot be mounted here, or undefined when it can. */
export function mountProblem(): string | undefined {
  const probe = join(process.env.TMPDIR ?? '/tmp', `voicedesk-mount-probe-${process.pid}`)
  mkdirSync(probe, { recursive: true })
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', probe], { stdio: 'pipe' })
    execFileSync('umount', [probe], { stdio: 'pipe' })
    return undefined
  } catch (error) {
    return `cannot mount a tmpfs (${(error as Error).message.split('\n')[0]})`
  } finally {
    rmSync(probe, { recursive: true, force: true })
  }
}

/** A fresh folder on a tmpfs of `sizeMiB`. */
export function smallDisk(sizeMiB: number): string {
  const directory = makeTempDir('voicedesk-small-disk')
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', directory], { stdio: 'pipe' })
  mounts.push(directory)
  return directory
}

/** Unmounts every small disk made so far: a tmpfs with open files cannot be, so stop what uses it first. */
export function unmountSmallDisks(): void {
  for (const mount of mounts.splice(0)) execFileSync('umount', [mount], { stdio: 'pipe' })
}

/** Writes `file` until the disk has no room left. */
export function fillDisk(file: string): void {
  const chunk = Buffer.alloc(1024 * 1024, 1)
  const fd = openSync(file, 'w')
  try {
    for (let size = chunk.length; size >= 512;) {
      try {
        writeSync(fd, chunk, 0, size)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
        size = Math.floor(size / 2) // the last bytes too
      }
    }
  } finally {
    closeSync(fd)
  }
}
