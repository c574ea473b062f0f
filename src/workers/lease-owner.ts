import { randomUUID } from 'node:crypto'
import { hostname } from 'node:os'

/** A lease owner names its process, so a restart on this host can tell a dead owner at once. */
export function leaseOwnerName(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`
}

/** True when `owner` was a process of this host that is gone, or an earlier owner of this process. */
export function isDeadLeaseOwner(owner: string, self: string): boolean {
  const [host, pidText] = owner.split(':')
  if (host !== hostname() || owner === self) return false
  const pid = Number(pidText)
  if (pid === process.pid) return true // an earlier runner of this process, stopped
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}
