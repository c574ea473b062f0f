/**
 * The names and Electron channels of the operator UI's operations, without their schemas.
 * The preload imports this file alone: a sandboxed preload is one bundled script, and it
 * needs the names, not zod and every schema. operations.ts checks that this list and its
 * table name the same operations.
 */
export const IPC_OPERATION_NAMES = [
  'service.info',
  'voices.list',
  'voices.sample',
  'templates.list',
  'agents.list',
  'agents.get',
  'agents.create',
  'agents.update',
  'agents.clone',
  'agents.delete',
  'agents.versions',
  'agents.version',
  'agents.restoreVersion',
  'tests.getSuite',
  'tests.putSuite',
  'tests.starterSuite',
  'tests.startRun',
  'tests.getRun',
  'tests.listRuns',
  'numbers.list',
  'numbers.add',
  'numbers.assign',
  'numbers.unassign',
  'numbers.delete',
  'jobs.list',
  'jobs.get',
  'jobs.createTts',
  'jobs.createAiContent',
  'jobs.getAiContent',
  'jobs.retry',
  'jobs.subtitles',
  'jobs.translate',
  'jobs.transcriptionUploadLink',
  'jobs.createTranscription',
  'webhooks.list',
  'webhooks.get',
  'webhooks.redeliver',
  'analytics.summary',
  'requests.list',
  'requests.get',
  'requests.har',
  'keys.list',
  'keys.create',
  'keys.revoke',
  'settings.get',
  'settings.setAiEngine',
  'settings.setSttEngine',
  'settings.testEngine',
  'settings.setCorsOrigins',
  'faults.list',
  'faults.add',
  'faults.remove',
  'faults.clear',
  'state.deleteSnapshot',
  'state.exportLink',
  'state.importLink',
  'state.reset',
  'state.restore',
  'state.snapshot',
  'state.snapshots',
  'sip.status',
  'sipUsers.list',
  'sipUsers.add',
  'sipUsers.resetPassword',
  'sipUsers.remove',
  'calls.callSoftphone',
] as const

export type IpcOperationName = (typeof IPC_OPERATION_NAMES)[number]

/** The operator contract's duplex streams (streams.ts has their schemas). */
export const IPC_STREAM_NAMES = ['calls.test'] as const
export type IpcStreamName = (typeof IPC_STREAM_NAMES)[number]

/** The Electron channels: one per operation (`voicedesk:<name>`) and one for events. */
export const ipcChannelOf = (name: IpcOperationName) => `voicedesk:${name}` as const
export const IPC_EVENT_CHANNEL = 'voicedesk:event'
/** The Electron carrier of streams: the renderer posts `{ name, input }` with one MessagePort on this channel; frames then go over the port. */
export const IPC_STREAM_CHANNEL = 'voicedesk:stream'

/** True when two unions of names are the same (a table and its list of names checked at compile time). */
export type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
