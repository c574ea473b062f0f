import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'

/** A plugin's per-request hook, either style (a callback hook, or an async one that ignores `done`). */
export type HeldRequestHook = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void | Promise<unknown>

/** The `onRequest` and `onResponse` hooks a plugin tried to add to every route. */
export interface HeldRequestHooks {
  onRequest: HeldRequestHook
  onResponse: HeldRequestHook
}

type PluginCallback = (instance: FastifyInstance, options: never, done: (error?: Error) => void) => void

/**
 * Registers `plugin` on `app` as it would register itself (fastify-plugin's way: it decorates
 * `app`), but gives back its `onRequest` and `onResponse` hooks instead of letting it add them to
 * every route. Fastify costs every request a share per hook, and an `onResponse` hook more: two
 * listeners on each answer and a runner when it ends. The caller runs them for the few requests
 * that need them. Fails unless the plugin added exactly one of each, so a new version of it that
 * adds or drops a hook is looked at rather than silently half-held.
 */
export async function registerHoldingRequestHooks(
  app: FastifyInstance,
  displayName: string,
  plugin: PluginCallback,
  options: object,
): Promise<HeldRequestHooks> {
  const held: Partial<Record<keyof HeldRequestHooks, HeldRequestHook[]>> = {}
  // The plugin sees the instance itself but for addHook, whose two per-request hooks are held.
  const holding = (instance: FastifyInstance): FastifyInstance =>
    new Proxy(instance, {
      get(target, property, receiver) {
        if (property !== 'addHook') return Reflect.get(target, property, receiver) as unknown
        return (name: string, hook: HeldRequestHook) => {
          if (name === 'onRequest' || name === 'onResponse') (held[name] ??= []).push(hook)
          else target.addHook(name as 'preValidation', hook)
          return receiver as unknown
        }
      },
    })
  // fastify-plugin's marks: the plugin decorates the instance it is registered on, as its own export does.
  const holdingPlugin = Object.assign(
    (instance: FastifyInstance, _options: unknown, done: (error?: Error) => void) => plugin(holding(instance), options as never, done),
    { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: displayName },
  )
  await app.register(holdingPlugin)
  const { onRequest, onResponse } = held
  if (onRequest?.length !== 1 || onResponse?.length !== 1 || onRequest[0] === undefined || onResponse[0] === undefined) {
    throw new Error(
      `${displayName} added ${onRequest?.length ?? 0} onRequest and ${onResponse?.length ?? 0} onResponse hooks, not the one of each this service holds`,
    )
  }
  return { onRequest: onRequest[0], onResponse: onResponse[0] }
}
