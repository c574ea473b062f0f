import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { WebhookAddressPolicy } from '../webhooks/webhook-address-policy'
import { loadTemplateCatalogue } from './ops/templates-catalogue'
import type { RequestJournal } from './request-journal/request-journal'
import { applySeed } from './state/seed'
import { composeCalls } from './compose/calls'
import { maxCallsProblem } from '../conversations/conversation-host'
import { findResourcesDir, mediaIntakeLimits, type Runtime, type RuntimeConfig } from './compose/config'
import { composeContext } from './compose/context'
import { composeEngines } from './compose/engines'
import { composeHttp, ServiceAddress } from './compose/http'
import { composeJournal } from './compose/journal'
import { composeFaults, composeOperatorBridge, composeOperatorFeed } from './compose/operator'
import { announceRunningService } from './compose/running-services'
import { composeProjectState, composeStorage, seedFileOf } from './compose/storage'
import { composeWorkers } from './compose/workers'
import { RuntimeSipLine } from './compose/sip'
import { sipConfigProblem } from './compose/sip-config'
import { TestRunner } from './test-runs/test-runner'
import { ApiKeyAuthenticator } from './ops/api-keys'

/** `ws://host:port` of the server's listening socket (loopback for a wildcard address); undefined while it does not listen. */
function socketBaseOf(app: { server: { address(): string | AddressInfo | null } }): string | undefined {
  const address = app.server.address()
  if (address === null || typeof address === 'string') return undefined
  const host = address.address === '0.0.0.0' || address.address === '::' ? '127.0.0.1' : address.address
  return `ws://${address.family === 'IPv6' && host.includes(':') ? `[${host}]` : host}:${address.port}`
}

export {
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_SIP_SETTINGS,
  VERSION,
  databaseLabel,
  type Runtime,
  type RuntimeConfig,
} from './compose/config'

/** The agents' test runs, which call this service as a caller would, over its /stream socket. */
function composeTestRuns(
  { config, context, engines, storage }: Pick<Parameters<typeof composeHttp>[0], 'config' | 'context' | 'engines' | 'storage'>,
  streamBase: () => string | undefined,
): TestRunner {
  return new TestRunner({
    context,
    streamBase,
    scenarioTimeoutMs: config.testRuns?.scenarioTimeoutMs,
    log: storage.errorLog,
    speak: (text, voiceId, signal) => engines.calls.audio.speak(text, voiceId, signal),
  })
}

/** Throws, naming the field, when the embedder's config cannot work (a call cap, the SIP line's port or host). */
function refuseBadConfig(config: RuntimeConfig): void {
  const capProblem = config.calls?.maxConcurrent === undefined ? undefined : maxCallsProblem(config.calls.maxConcurrent)
  if (capProblem) throw new Error(`RuntimeConfig.calls.maxConcurrent ${capProblem}`)
  const sipProblem = config.sip && sipConfigProblem(config.sip)
  if (sipProblem) throw new Error(`RuntimeConfig.sip.${sipProblem}`)
}

/**
 * Joins the parts of the service (src/service/compose/, one file each) from one config: storage,
 * engines, the leased workers (jobs, webhooks), live calls, the operator UI's bridge and HTTP.
 * Shared by the CLI, Electron and tests.
 */
export async function createRuntime(config: RuntimeConfig): Promise<Runtime> {
  const now = config.now ?? (() => new Date())
  // Checked before anything opens: a wrong setting is the embedder's mistake, and nothing is left to close.
  refuseBadConfig(config)
  const templates = loadTemplateCatalogue(join(config.resourcesDir ?? findResourcesDir(), 'templates'))
  const storage = await composeStorage(config, now)
  const { store, dataDir, diskFull, errorLog } = storage
  let journal: RequestJournal | undefined
  try {
    const address = new ServiceAddress(config)
    const baseUrl = address.baseUrl
    const mediaIntake = mediaIntakeLimits(config.mediaIntake)
    const engines = await composeEngines(config, storage)
    const feed = composeOperatorFeed(storage)
    const faults = composeFaults(config, storage, feed, now)
    const webhookAddresses = new WebhookAddressPolicy(config.allowWebhookHosts)
    const workers = composeWorkers({ config, storage, engines, feed, faults, webhookAddresses, mediaIntake, baseUrl, now })
    const { runner, webhookSender } = workers
    const sip = new RuntimeSipLine(config.sip, storage)
    const context = composeContext({
      ...{ config, storage, engines, workers, feed, templates, webhookAddresses, mediaIntake, baseUrl, now },
      telephony: sip,
    })
    const calls = composeCalls({ config, storage, engines, workers, feed, now })
    sip.attach({ context, calls })
    journal = composeJournal(config, storage, feed.events)
    // Work that came back with the rows of an import or a restore (queued jobs, pending deliveries) runs again.
    const state = composeProjectState(config, storage, now, () => {
      workers.wakeJobs()
      workers.wakeWebhooks()
    })
    const parts = { config, storage, engines, context, calls, faults, journal, state, now }
    // One authenticator for every route and socket: the operator's run tickets are accepted where real keys are.
    const authenticator = new ApiKeyAuthenticator(context, (error) =>
      errorLog.error({ err: error }, 'recording when an API key was last used failed'),
    )
    // Test runs call this very service over its socket, once it listens. Made before the
    // operator bridge, which starts them too (`app` is read only once a run starts).
    const testRuns = composeTestRuns(parts, () => socketBaseOf(app))
    const operator = composeOperatorBridge({
      ...parts,
      signing: workers.signing,
      testRuns,
      authenticator,
      sipLine: () => sip.status,
    })
    const app = await composeHttp({ ...parts, address, events: feed.events, operator, testRuns, authenticator })
    const seedFile = seedFileOf(config, storage)
    if (seedFile) await applySeed(seedFile, context, state, storage.appCaller)
    await runner.start()
    await webhookSender.start()
    await testRuns.start()
    calls.start()
    let stopping: Promise<void> | undefined
    let withdrawAnnouncement: (() => void) | undefined
    return {
      store,
      context,
      runner,
      webhookSender,
      app,
      bootstrap: storage.bootstrap,
      media: storage.media,
      diskFull,
      log: storage.log,
      appCaller: storage.appCaller,
      events: feed.events,
      calls,
      journal,
      faults,
      state,
      links: operator.links,
      uiToken: operator.uiToken,
      operatorHandlers: operator.handlers,
      operatorStreams: operator.streams,
      sipLine: () => sip.status,
      start: async (options) => {
        const listening = await app.listen({ port: address.port, host: address.host }).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'EADDRINUSE' && options?.freePortWhenTaken) return app.listen({ port: 0, host: address.host })
          throw error
        })
        const url = address.listening((app.server.address() as AddressInfo).port)
        await sip.start()
        if (dataDir) withdrawAnnouncement = announceRunningService(dataDir, url, now())
        return listening
      },
      stop: () =>
        (stopping ??= (async () => {
          withdrawAnnouncement?.()
          // First: their calls hang up and each run ends FAILED, written before the store closes.
          await testRuns.stop()
          sip.stopAccepting()
          // Before the server closes their sockets: each call ends as stopped by the service, and is written (a SIP call's BYE sent).
          await calls.stop()
          await sip.close()
          await app.close()
          // After the server: the last requests' entries are written before the file closes.
          journal?.close()
          await runner.stop(config.jobs?.graceMs)
          // After the runner: jobs that ended while it drained have their deliveries tried too.
          await webhookSender.stop(config.webhooks?.graceMs)
          await engines.close()
          diskFull.close()
          faults.close()
          await store.close()
          errorLog.close()
        })()),
    }
  } catch (error) {
    journal?.close()
    await store.close()
    throw error
  }
}
