import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FaultBook, RequestFault } from '../faults/fault-book'
import type { GateOutcome, RequestGate } from './request-gates'

/** The path of a request URL, without its query. */
function pathOf(url: string): string {
  const mark = url.indexOf('?')
  return mark === -1 ? url : url.slice(0, mark)
}

/** Answers the fault's error in the contract's envelope (sent as text: the code may be one the envelope's schema does not list). */
function sendFaultAnswer(reply: FastifyReply, respond: NonNullable<RequestFault['respond']>): void {
  const envelope = { success: false, message: respond.message, error: { code: respond.code, details: [] } }
  reply.code(respond.status).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(envelope))
}

/** Destroys the socket without an answer (the client sees a reset or a closed connection). */
function dropConnection(request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack()
  request.raw.socket.destroy()
}

/**
 * The request side of fault injection, for a scope behind the key check (/v1): a gate after
 * apiKeyGate, so the caller, hence the project, is known. With no rule anywhere it costs one
 * property read.
 */
export function faultGate(faults: FaultBook): RequestGate {
  return (request, reply) => {
    if (faults.empty || !request.caller) return undefined
    const fault = faults.matchRequest(request.caller.projectId, request.method, pathOf(request.url))
    if (!fault) return undefined
    const act = (): GateOutcome => {
      if (fault.respond) sendFaultAnswer(reply, fault.respond)
      else if (fault.dropConnection) dropConnection(request, reply)
      else return undefined
      return 'answered'
    }
    if (fault.delayMs <= 0) return act()
    return new Promise((resolve) => setTimeout(() => resolve(act()), fault.delayMs))
  }
}
