import { callAnalytics, overviewAnalytics, satisfactionAnalytics } from '../ops/agent-analytics'
import type { IpcOperationName, IpcOutput, IpcParsedInput } from '../../shared/ipc/operations'
import { VOICES } from '../../shared/voices'
import type { ApiKeyRecord } from '../../store/records'
import { effectiveCorsOrigins, saveCorsOrigins } from '../settings/cors-settings'
import { aiContentSettingView, readAiContentSetting, saveAiContentSetting } from '../settings/ai-content-settings'
import { readSttSetting, saveSttSetting, sttSettingView } from '../settings/stt-settings'
import { testEngineConnection } from '../settings/engine-connection-test'
import { getAgentVersion, listAgentVersions, restoreAgentVersion } from '../ops/agent-versions'
import { type ApiKeyAuthenticator, appKeyIdOf, createApiKey, listApiKeys, revokeApiKey } from '../ops/api-keys'
import { createAiContentJob, createTextToSpeechJob, getAiContentJob, retryJob } from '../ops/jobs'
import { getOperatorJob } from '../ops/operator-job-detail'
import { journalEntryDetail, journalHar, journalOffError, listJournalPage } from '../ops/request-journal'
import type { RequestJournal } from '../request-journal/request-journal'
import { listOperatorJobs } from '../ops/operator-job-list'
import { createTranscriptionJobFromUrl, jobSubtitles } from '../ops/transcription-jobs'
import { createTranslationJob } from '../ops/translation-jobs'
import type { Caller, OpsContext } from '../ops/ops-context'
import { addPhoneNumber, assignPhoneNumber, deletePhoneNumber, listPhoneNumbers, unassignPhoneNumber } from '../ops/phone-numbers'
import { ServiceError, underField } from '../ops/service-error'
import { addSipUser, listSipUsers, removeSipUser, resetSipUserPassword } from '../ops/sip-users'
import { placeOutboundCall } from '../ops/outbound-calls'
import {
  cloneVoiceAgent,
  createVoiceAgent,
  deleteVoiceAgent,
  getVoiceAgent,
  listTemplates,
  listVoiceAgents,
  updateVoiceAgent,
} from '../ops/voice-agents'
import { findTestSuite, getStarterTestSuite, getTestRun, listTestRuns, putTestSuite, startTestRun } from '../ops/test-runs'
import type { TestRunner } from '../test-runs/test-runner'
import { getDelivery, listDeliveries, redeliver } from '../ops/webhooks'
import type { ProjectState } from '../state/project-state'
import type { OperatorLinks } from '../ops/operator-links'
import type { VoiceSamples } from './voice-samples'
import type { FaultBook } from '../faults/fault-book'

/** One function per operation; each takes its input already validated by the contract's schema. */
export type OperatorHandlers = {
  [N in IpcOperationName]: (input: IpcParsedInput<N>) => IpcOutput<N> | Promise<IpcOutput<N>>
}

export interface OperatorHandlerDeps {
  context: OpsContext
  /** The app's identity in the default project (ensureAppIdentity). */
  caller: Caller
  host: 'desktop' | 'browser'
  version: string
  dataDir: string
  voiceSamples: VoiceSamples
  /** Whether webhooks are signed now. */
  webhookSigning: () => Promise<boolean>
  /** Unfinished jobs: held by a runner, and waiting. */
  queueCounts: () => Promise<{ running: number; waiting: number }>
  /** `--cors-origin`: when given, it beats the setting. */
  cliCorsOrigins?: readonly string[]
  /** Called once a new AI-content engine was chosen, so the next job uses it. */
  aiContentEngineChanged: () => Promise<void>
  /** The request journal; undefined while it is off (`--journal off`). */
  journal: () => RequestJournal | undefined
  /** This instance's fault-injection rules. */
  faults: FaultBook
  /** Export, import, snapshots and reset of the project's state, and the UI's one-use links. */
  state: ProjectState
  links: OperatorLinks
  /** Agent test runs, and the authenticator whose run tickets their calls connect with. */
  testRuns: TestRunner
  authenticator: Pick<ApiKeyAuthenticator, 'issueTicket'>
  /** The SIP line of this running service: where it listens, or why it does not (the runtime's SipLineStatus). */
  sipLine: () => { state: 'off' } | { state: 'listening'; host: string; port: number } | { state: 'failed'; problem: string }
}

function throwJournalOff(): never {
  throw journalOffError()
}

function portOf(url: string): number {
  const { port, protocol } = new URL(url)
  return port ? Number(port) : protocol === 'https:' ? 443 : 80
}

type TestsOperation = Extract<IpcOperationName, `tests.${string}`>

/** The Tests tab's operations: the /_voicedesk test routes' use cases, as the app's identity. */
function testsHandlers(deps: OperatorHandlerDeps): Pick<OperatorHandlers, TestsOperation> {
  const { context, caller } = deps
  return {
    'tests.getSuite': ({ agentId }) => findTestSuite(context, caller, agentId),
    'tests.putSuite': ({ agentId, suite }) => putTestSuite(context, caller, agentId, suite),
    'tests.starterSuite': ({ agentId }) => getStarterTestSuite(context, caller, agentId),
    'tests.startRun': async ({ agentId, ...body }) => {
      // The operator has no API key, and each scenario's call connects over /stream with one: a
      // ticket good for this run only, revoked when it ends (or at once if it does not start).
      const ticket = deps.authenticator.issueTicket(caller)
      try {
        return await startTestRun(context, deps.testRuns, caller, ticket.key, agentId, body, ticket.revoke)
      } catch (error) {
        ticket.revoke()
        throw error
      }
    },
    'tests.getRun': ({ id }) => getTestRun(context, caller, id),
    'tests.listRuns': ({ agentId, take }) => listTestRuns(context, caller, agentId, take),
  }
}

type SipLineOperation = Extract<IpcOperationName, `sip.${string}`>

/** The SIP line as the app shows it: live from the running line, never a stored setting. */
function sipLineHandlers(deps: OperatorHandlerDeps): Pick<OperatorHandlers, SipLineOperation> {
  return {
    'sip.status': async () => {
      const status = deps.sipLine()
      return status.state === 'listening' ? { ...status, authRequired: await deps.context.telephony.authRequired() } : status
    },
  }
}

type SipOperation = Extract<IpcOperationName, `sipUsers.${string}` | 'calls.callSoftphone'>

/** The SIP line's users and "Call my softphone": the same use cases as the CLI and POST /v1/voice-agents/call. */
function sipHandlers(deps: OperatorHandlerDeps): Pick<OperatorHandlers, SipOperation | SipLineOperation> {
  const { context, caller } = deps
  const users = { store: context.store, now: context.now, telephony: context.telephony }
  return {
    ...sipLineHandlers(deps),
    'sipUsers.list': () => listSipUsers(users),
    'sipUsers.add': ({ name }) => addSipUser(users, name),
    'sipUsers.resetPassword': ({ name }) => resetSipUserPassword(users, name),
    'sipUsers.remove': ({ name }) => removeSipUser(users, name),
    'calls.callSoftphone': async ({ agentId, sipUser }) => {
      const job = await placeOutboundCall(context, caller, { voiceAgentId: agentId, target: { sipUser } })
      return { conversationId: job.id }
    },
  }
}

/**
 * The operator UI's handler table: every operation of the IPC contract, each a thin call of
 * the same use case (src/service/ops) the /v1 routes call, as the app's identity. Transports
 * (Electron IPC, browser mode's /ipc) reach it only through invokeOperation.
 */
export function createOperatorHandlers(deps: OperatorHandlerDeps): OperatorHandlers {
  const { context, caller } = deps
  const { store } = context

  const toKeyInfo = (record: ApiKeyRecord, appKeyId: string | undefined) => ({
    id: record.id,
    name: record.name,
    keyHint: record.keyHint,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
    revokedAt: record.revokedAt,
    usedByApp: record.id === appKeyId,
  })

  /** The agent with its tools as stored (write-only on /v1; the UI's editor shows them). */
  const withTools = async <A extends { id: string }>(agentOrPromise: A | Promise<A>) => {
    const agent = await agentOrPromise
    const tools = (await store.voiceAgents.findInProject(agent.id, caller.projectId))?.tools
    return { ...agent, tools: { genderDetection: tools?.genderDetection ?? false, smartCallEnd: tools?.smartCallEnd ?? false } }
  }

  const settings = async () => ({
    port: portOf(context.baseUrl()),
    dataDir: deps.dataDir,
    aiContent: aiContentSettingView(await readAiContentSetting(store)),
    speechRecognition: sttSettingView(await readSttSetting(store)),
    webhookSigning: await deps.webhookSigning(),
    tts: { engine: 'espeak-ng' as const },
    cors: (({ origins, source }) => ({ origins: [...origins], source }))(await effectiveCorsOrigins(store, deps.cliCorsOrigins)),
  })

  /** The journal, or CONFLICT: the Requests screen says how to turn it on. */
  const journal = () => deps.journal() ?? throwJournalOff()

  return {
    'service.info': async () => {
      const appKeyId = await appKeyIdOf(store)
      const usable = (await listApiKeys(context, caller.projectId)).find((key) => !key.revokedAt && key.id !== appKeyId)
      const { running, waiting } = await deps.queueCounts()
      return {
        url: context.baseUrl(),
        version: deps.version,
        dataDir: deps.dataDir,
        port: portOf(context.baseUrl()),
        projectId: caller.projectId,
        keyHint: usable?.keyHint ?? '',
        runningJobs: running,
        pendingJobs: waiting,
        host: deps.host,
      }
    },

    'voices.list': () => [...VOICES],
    'voices.sample': (input) => deps.voiceSamples.sample(input.voiceId, input.text),

    'templates.list': () => listTemplates(context),

    'agents.list': async (input) => {
      const page = await listVoiceAgents(context, caller, input)
      return { agents: await Promise.all(page.agents.map(withTools)), total: page.total, filtered: page.filtered }
    },
    'agents.get': (input) => withTools(getVoiceAgent(context, caller, input.id)),
    'agents.create': (input) => withTools(createVoiceAgent(context, caller, input)),
    // The use case's input is `changes`: a refusal of `webhookUrl` names `changes.webhookUrl`.
    'agents.update': (input) => withTools(underField('changes', () => updateVoiceAgent(context, caller, input.id, input.changes, 'ui'))),
    'agents.clone': ({ sourceId, agentName }) =>
      withTools(cloneVoiceAgent(context, caller, sourceId, agentName === undefined ? undefined : { agentName })),
    'agents.delete': (input) => deleteVoiceAgent(context, caller, input.id),
    'agents.versions': ({ id, take, skip }) => listAgentVersions(context, caller, id, { take, skip }),
    'agents.version': ({ id, version }) => getAgentVersion(context, caller, id, version),
    'agents.restoreVersion': ({ id, version }) => withTools(restoreAgentVersion(context, caller, id, version)),

    ...testsHandlers(deps),

    'numbers.list': (input) => listPhoneNumbers(context, caller, input),
    'numbers.add': (input) => addPhoneNumber(context, caller, input),
    'numbers.assign': (input) => assignPhoneNumber(context, caller, input),
    'numbers.unassign': (input) => unassignPhoneNumber(context, caller, input),
    'numbers.delete': (input) => deletePhoneNumber(context, caller, input.id),

    'jobs.list': ({ createdFrom, createdTo, ...body }) => listOperatorJobs(context, caller, body, { createdFrom, createdTo }),
    'jobs.get': (input) => getOperatorJob(context, caller, input.id),
    'jobs.createTts': (input) => createTextToSpeechJob(context, caller, input),
    'jobs.createAiContent': ({ sourceJobId, ...body }) => createAiContentJob(context, caller, sourceJobId, body),
    'jobs.getAiContent': (input) => getAiContentJob(context, caller, input.id),
    'jobs.retry': (input) => retryJob(context, caller, input.jobId),
    'jobs.subtitles': async ({ jobId, format }) => ({ format, text: await jobSubtitles(context, caller, jobId, format) }),
    'jobs.transcriptionUploadLink': (fields) => ({
      url: `${context.baseUrl()}/_voicedesk/links/transcribe/${deps.links.create('transcribe', { caller, fields })}`,
    }),
    'jobs.createTranscription': (body) => createTranscriptionJobFromUrl(context, caller, body),
    'jobs.translate': (input) => createTranslationJob(context, caller, input),

    'webhooks.list': (input) => listDeliveries(context, caller, input),
    'webhooks.get': (input) => getDelivery(context, caller, input.id),
    'webhooks.redeliver': (input) => redeliver(context, caller, input.id),

    'analytics.summary': async (input) => {
      const [overview, calls, satisfaction] = await Promise.all([
        overviewAnalytics(context, caller, input),
        callAnalytics(context, caller, input),
        satisfactionAnalytics(context, caller, input),
      ])
      return { overview, calls, satisfaction }
    },

    'requests.list': (input) => listJournalPage(journal(), caller.projectId, input),
    'requests.get': (input) => journalEntryDetail(journal(), caller.projectId, input.id, context.baseUrl()),
    'requests.har': (input) => {
      const har = journalHar(journal(), caller.projectId, input, context.baseUrl(), deps.version)
      // A name that sorts by time and is valid on every file system (no colons).
      const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '-')
      return { fileName: `voicedesk-requests-${stamp}.har`, har: JSON.stringify(har, null, 2) }
    },

    'keys.list': async () => {
      const appKeyId = await appKeyIdOf(store)
      return (await listApiKeys(context, caller.projectId)).map((record) => toKeyInfo(record, appKeyId))
    },
    'keys.create': async (input) => {
      const { record, key } = await createApiKey(context, caller.projectId, input.name)
      return { key, info: toKeyInfo(record, await appKeyIdOf(store)) }
    },
    'keys.revoke': async (input) => {
      await revokeApiKey(context, input.id, caller.projectId)
      const record = await store.accounts.findKey(input.id)
      if (!record) throw new ServiceError('NOT_FOUND', `No API key with id ${JSON.stringify(input.id)} in this project`)
      return toKeyInfo(record, await appKeyIdOf(store))
    },

    'settings.get': () => settings(),
    'settings.setAiEngine': async (input) => {
      await saveAiContentSetting(store, context.secrets, input)
      await deps.aiContentEngineChanged()
      return settings()
    },
    'settings.setSttEngine': async (input) => {
      // Each call reads the setting when it starts, so nothing needs telling.
      await saveSttSetting(store, context.secrets, input)
      return settings()
    },
    'settings.testEngine': (input) => testEngineConnection(store, context.secrets, input),
    'settings.setCorsOrigins': async (input) => {
      await saveCorsOrigins(store, input.corsOrigins)
      return settings()
    },

    'faults.list': () => ({ faults: deps.faults.list(caller.projectId) }),
    'faults.add': (input) => deps.faults.add(caller.projectId, input),
    'faults.remove': (input) => {
      const removed = deps.faults.remove(caller.projectId, input.id)
      if (!removed) throw new ServiceError('NOT_FOUND', `No fault rule with id ${JSON.stringify(input.id)} in this project`)
      return removed
    },
    'faults.clear': () => ({ removed: deps.faults.clear(caller.projectId) }),
    'state.deleteSnapshot': (input) => deps.state.deleteSnapshot(caller.projectId, input.name),
    'state.exportLink': (input) => ({
      url: `${context.baseUrl()}/_voicedesk/links/export/${deps.links.create('export', { caller, passphrase: input.passphrase })}`,
    }),
    'state.importLink': (input) => ({
      url: `${context.baseUrl()}/_voicedesk/links/import/${deps.links.create('import', { caller, passphrase: input.passphrase })}`,
    }),
    'state.reset': () => deps.state.reset(caller.projectId),
    'state.restore': async (input) => ({ counts: (await deps.state.restoreSnapshot(caller.projectId, input.name, caller)).counts }),
    'state.snapshot': (input) => deps.state.takeSnapshot(caller.projectId, input.name),
    'state.snapshots': async () => ({
      snapshots: await deps.state.listSnapshots(caller.projectId),
      current: await store.projectData.projectCounts(caller.projectId),
    }),

    ...sipHandlers(deps),
  }
}
