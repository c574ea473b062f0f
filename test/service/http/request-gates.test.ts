import Fastify, { type FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { registerRequestGates, type RequestGate } from '../../../src/service/http/request-gates'
import { startTestService } from '../../helpers/test-service'

// The runner alone, on a Fastify app of its own served on 127.0.0.1: the service's gates are
// tested through the service (host-check, cors, fault-injection, auth-and-requests).

let app: FastifyInstance | undefined

afterEach(async () => {
  await app?.close()
  app = undefined
})

async function serve(gates: RequestGate[]): Promise<string> {
  app = Fastify({ logger: false })
  registerRequestGates(app, gates)
  app.get('/thing', (request) => ({ reached: true, seen: request.headers['x-seen'] ?? null }))
  return app.listen({ port: 0, host: '127.0.0.1' })
}

/** A gate that notes its name in `log` and then lets the request on. */
function noting(log: string[], name: string): RequestGate {
  return () => {
    log.push(name)
    return undefined
  }
}

describe('request gates', () => {
  it('runs the gates in order, waits for one that must, and reaches the route when all let the request on', async () => {
    const log: string[] = []
    const later = (): Promise<undefined> => new Promise((resolve) => setTimeout(() => resolve(undefined), 20))
    const base = await serve([noting(log, 'first'), () => (log.push('second'), later()), noting(log, 'third')])
    const answer = await fetch(`${base}/thing`)
    expect(answer.status).toBe(200)
    expect(await answer.json()).toEqual({ reached: true, seen: null })
    expect(log).toEqual(['first', 'second', 'third'])
  })

  it('stops at a gate that answered, at once or after waiting: no later gate, no route', async () => {
    for (const waits of [false, true]) {
      const log: string[] = []
      const answering: RequestGate = (_request, reply) => {
        log.push('answering')
        const answer = () => {
          reply.status(418).send({ answeredBy: 'gate' })
          return 'answered' as const
        }
        return waits ? Promise.resolve().then(answer) : answer()
      }
      const base = await serve([noting(log, 'first'), answering, noting(log, 'never')])
      const answer = await fetch(`${base}/thing`)
      expect(answer.status).toBe(418)
      expect(await answer.json()).toEqual({ answeredBy: 'gate' })
      expect(log).toEqual(['first', 'answering'])
      await app?.close()
    }
  })

  it('answers an error a gate returned, threw or rejected with through the error handler, and runs nothing after it', async () => {
    const failing: RequestGate[] = [
      () => Object.assign(new Error('returned'), { statusCode: 401 }),
      () => {
        throw Object.assign(new Error('thrown'), { statusCode: 403 })
      },
      () => Promise.reject(Object.assign(new Error('rejected'), { statusCode: 409 })),
      () => Promise.resolve(Object.assign(new Error('resolved'), { statusCode: 410 })),
    ]
    for (const [index, gate] of failing.entries()) {
      const log: string[] = []
      const base = await serve([gate, noting(log, 'never')])
      const answer = await fetch(`${base}/thing`)
      expect(answer.status).toBe([401, 403, 409, 410][index])
      expect(((await answer.json()) as { message: string }).message).toBe(['returned', 'thrown', 'rejected', 'resolved'][index])
      expect(log).toEqual([])
      await app?.close()
    }
  })

  it('keeps 200 requests at once apart while their gates settle in any order', async () => {
    const base = await serve([
      (request) =>
        new Promise((resolve) => {
          setTimeout(() => resolve(undefined), Math.random() * 30)
        }).then(() => (Number(request.headers['x-seen']) % 7 === 0 ? Object.assign(new Error('sevens'), { statusCode: 400 }) : undefined)),
      (request, reply) => {
        if (Number(request.headers['x-seen']) % 5 !== 0) return undefined
        reply.status(202).send({ fives: request.headers['x-seen'] })
        return 'answered'
      },
    ])
    const answers = await Promise.all(
      Array.from({ length: 200 }, async (_, index) => {
        const answer = await fetch(`${base}/thing`, { headers: { 'x-seen': String(index) } })
        return { index, status: answer.status, body: (await answer.json()) as Record<string, unknown> }
      }),
    )
    for (const { index, status, body } of answers) {
      if (index % 7 === 0) expect({ index, status, message: body.message }).toEqual({ index, status: 400, message: 'sevens' })
      else if (index % 5 === 0) expect({ index, status, body }).toEqual({ index, status: 202, body: { fives: String(index) } })
      else expect({ index, status, body }).toEqual({ index, status: 200, body: { reached: true, seen: String(index) } })
    }
  })
})

describe('the hooks every GET of the service pays', () => {
  it('are one onRequest runner per scope, one preValidation and one onSend: no onResponse hook on any GET route', async () => {
    // Fastify costs each request a share per hook, and an onResponse hook two listeners and a
    // runner on every answer: the plugins' per-request hooks are held (held-request-hooks.ts)
    // and the journal listens to `finish` itself. A new hook on every route should be a choice.
    const service = await startTestService()
    await service.runtime.app.ready()
    const tree = service.runtime.app.printRoutes({ includeHooks: true, commonPrefix: false, method: 'GET' })
    expect(tree).toContain('/:voiceAgentId (GET)')
    expect(tree).not.toContain('(onResponse)')
    for (const line of tree.split('\n').filter((text) => text.includes('• ('))) {
      expect(['onRequest', 'preValidation', 'onSend'], line).toContain(/• \((\w+)\)/.exec(line)![1])
    }
    // The GET of an agent (the journal bench's request): the root's and /v1's gate runners, the 415 check, the journal's onSend.
    const agentRoute = tree
      .split('/:voiceAgentId (GET)')[1]!
      .split('\n')
      .slice(1, 4)
      .map((line) => line.replace(/^[\s│]*/, ''))
    expect(agentRoute).toEqual([
      '• (onRequest) ["anonymous()","anonymous()"]',
      '• (preValidation) ["anonymous()"]',
      '• (onSend) ["anonymous()"]',
    ])
    // The GET of an agent, the journal's own measure, is among them (the WebSocket routes add theirs in their own options).
    expect((await service.call('GET', '/v1/voice-agents')).statusCode).toBe(200)
  })
})
