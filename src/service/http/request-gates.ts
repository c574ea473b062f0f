import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'

/** What a gate decided: let the request on (undefined), it answered the request itself, or this error is the answer. */
export type GateOutcome = undefined | 'answered' | Error

/**
 * One check a request meets before its route (the Host, the key, CORS, …). Synchronous on its
 * common path; a promise only when it must wait (a key not cached yet, a delayed fault).
 */
export type RequestGate = (request: FastifyRequest, reply: FastifyReply) => GateOutcome | Promise<GateOutcome>

/**
 * Runs `gates` in order as one onRequest hook of `app`: the first that answers or fails ends
 * the request there. Fastify's hook runner costs every request a share per hook (and the CPU
 * it takes slows what follows), so the checks of a scope share one hook; each stays its own
 * function in its own file. A gate that throws fails the request like a returned error.
 */
export function registerRequestGates(app: FastifyInstance, gates: readonly RequestGate[]): void {
  const runFrom = (first: number, request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    for (let index = first; index < gates.length; index += 1) {
      const gate = gates[index]
      if (gate === undefined) break
      let outcome: GateOutcome | Promise<GateOutcome>
      try {
        outcome = gate(request, reply)
      } catch (error) {
        return done(error as Error)
      }
      if (outcome === undefined) continue
      if (outcome === 'answered') return
      if (outcome instanceof Error) return done(outcome)
      outcome.then((settled) => {
        if (settled === undefined) runFrom(index + 1, request, reply, done)
        else if (settled instanceof Error) done(settled)
      }, done)
      return
    }
    done()
  }
  app.addHook('onRequest', (request, reply, done) => runFrom(0, request, reply, done))
}
