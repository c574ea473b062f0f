import websocket from '@fastify/websocket'
import type { FastifyInstance } from 'fastify'
import { registerHoldingRequestHooks, type HeldRequestHooks } from './held-request-hooks'
import type { RequestGate } from './request-gates'

/** The largest frame a client may send: a media frame is under 1 KiB, a tools_response a few, a test call's audio under 100 KiB. */
const MAX_FRAME_BYTES = 1024 * 1024

const ignoreDone = (): void => undefined

/**
 * WebSockets for the app (the SDK's call socket, the operator UI's streams): `register` once,
 * before their routes; `gate` first among the root's gates.
 *
 * The plugin's two per-request hooks run for upgrade requests only. On every route they would
 * mark each request, then check the mark after each answer: an upgrade answered over HTTP
 * instead (a 401, a 404) has its socket closed. That `onResponse` hook alone cost every answer
 * two listeners and a hook runner. First among the gates, an upgrade refused by any of them (a
 * wrong Host too) has its socket closed after the answer.
 *
 * permessage-deflate is declined (the handshake answers without it, and the socket works uncompressed): on calls it
 * added about 55 % to the service's CPU (mostly inflating the microphone's 125 frames a second, which a threshold on our
 * sends cannot skip) to save a third of 43 KB/s of the agent's audio, nothing on loopback or a LAN (bench/results/calls.json, deflateCost).
 */
export class WebSockets {
  private hooks: HeldRequestHooks | undefined

  async register(app: FastifyInstance): Promise<void> {
    this.hooks = await registerHoldingRequestHooks(app, '@fastify/websocket', websocket, {
      options: { perMessageDeflate: false, maxPayload: MAX_FRAME_BYTES },
    })
  }

  readonly gate: RequestGate = (request, reply) => {
    const hooks = this.hooks
    if (request.headers.upgrade === undefined || hooks === undefined) return undefined
    void hooks.onRequest(request, reply, ignoreDone)
    reply.raw.on('finish', () => void hooks.onResponse(request, reply, ignoreDone))
    return undefined
  }
}
