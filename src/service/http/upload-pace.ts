import type { IncomingMessage } from 'node:http'
import { describeBytes } from '../../store/media-errors'
import type { MediaIntakeLimits } from '../media-intake/media-intake-limits'
import { RequestError } from './request-error'

export type UploadPaceLimits = Pick<
  MediaIntakeLimits,
  'uploadIdleTimeoutMs' | 'minUploadBytesPerSecond' | 'uploadRateWindowMs' | 'uploadDeadlineMs'
>

/**
 * Watches an upload's pace by the bytes its socket has read (never touching the body stream,
 * which busboy reads): silent for `uploadIdleTimeoutMs`, slower than `minUploadBytesPerSecond`
 * over a `uploadRateWindowMs` window, or longer than `uploadDeadlineMs` in all, `onBreach` is
 * called once with a 408 REQUEST_TIMEOUT that says which. A slow-loris client (a byte every
 * few seconds) is never silent, so the pace is what sends it away. Returns the stop.
 */
export function watchUploadPace(request: IncomingMessage, limits: UploadPaceLimits, onBreach: (refusal: RequestError) => void): () => void {
  const { socket } = request
  const startedAt = Date.now()
  let lastBytes = socket.bytesRead
  let lastProgressAt = startedAt
  let windowStartedAt = startedAt
  let windowStartBytes = lastBytes
  const check = () => {
    const now = Date.now()
    const bytes = socket.bytesRead
    if (bytes !== lastBytes) {
      lastBytes = bytes
      lastProgressAt = now
    }
    let problem: string | undefined
    if (now - lastProgressAt >= limits.uploadIdleTimeoutMs)
      problem = `No byte of the upload arrived for ${seconds(limits.uploadIdleTimeoutMs)}`
    else if (now - startedAt >= limits.uploadDeadlineMs) problem = `The upload took longer than ${seconds(limits.uploadDeadlineMs)}`
    else if (now - windowStartedAt >= limits.uploadRateWindowMs) {
      const pace = ((bytes - windowStartBytes) * 1000) / (now - windowStartedAt)
      if (pace < limits.minUploadBytesPerSecond) {
        problem = `The upload arrived at ${describeBytes(Math.floor(pace))}/s over ${seconds(now - windowStartedAt)}, slower than the least pace of ${describeBytes(limits.minUploadBytesPerSecond)}/s`
      }
      windowStartedAt = now
      windowStartBytes = bytes
    }
    if (problem === undefined) return
    clearInterval(timer)
    onBreach(new RequestError('REQUEST_TIMEOUT', `${problem}; nothing was kept`, [{ path: 'body', message: problem }]))
  }
  // Often enough that each limit is met within a tenth of itself (and at least every second).
  const timer = setInterval(check, Math.min(1_000, limits.uploadIdleTimeoutMs / 10, limits.uploadRateWindowMs / 10))
  timer.unref()
  return () => clearInterval(timer)
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`
}
