import { errorEnvelope } from '../../shared/api/errors'
import { createHostAllowList, type HostAllowListOptions } from './host-allow-list'
import type { RequestGate } from './request-gates'

/** Long forged names are cut in the message: it is for a person reading a refusal. */
const SHOWN_HOST_CHARS = 100

/**
 * Refuses, before anything else runs, every request whose Host header is not one this service
 * answers for: 421 MISDIRECTED_REQUEST in the envelope, on every route (/v1, /healthz,
 * /media, /preview, /app, /ipc, unknown routes). A missing Host is refused too.
 */
export function hostCheckGate(options: HostAllowListOptions): RequestGate {
  const isAllowed = createHostAllowList(options)
  return (request, reply) => {
    const host = request.headers.host
    if (isAllowed(host)) return undefined
    const message =
      host === undefined
        ? 'Misdirected request: the Host header is missing'
        : `Misdirected request: this service does not answer for the host ${JSON.stringify(host.slice(0, SHOWN_HOST_CHARS))}; use localhost or 127.0.0.1, or start it with --allowed-host`
    reply.status(421).header('connection', 'close').send(errorEnvelope('MISDIRECTED_REQUEST', message))
    return 'answered'
  }
}
