import { randomBytes, randomUUID } from 'node:crypto'
import type { Runtime } from '../../src/service/runtime'
import type { JobRecord } from '../../src/store/records'

/**
 * Writes a job straight into the store, as a finished transcription or translation would
 * be: VoiceDesk has no speech-to-text engine yet, so tests and benchmarks seed such jobs.
 * Give `apiKeyId` when seeding many, to spare a key lookup per job.
 */
export function seedJob(runtime: Runtime, fields: Partial<JobRecord> = {}): JobRecord {
  const at = fields.createdAt ?? new Date().toISOString()
  const record: JobRecord = {
    id: randomUUID(),
    projectId: runtime.bootstrap.projectId,
    apiKeyId: fields.apiKeyId ?? runtime.store.accounts.listKeys(runtime.bootstrap.projectId)[0]!.id,
    userId: runtime.bootstrap.userId,
    type: 'TRANSCRIPTION',
    status: 'COMPLETED',
    title: 'Call recording',
    model: 'whisper-large-v3',
    processingType: 'ASYNC',
    systemModelKey: 'transcription-default',
    voiceId: null,
    text: 'Hello, thanks for calling.',
    aiParts: null,
    jobResponse: {},
    errorCode: null,
    errorMessage: null,
    relevantJobId: null,
    voiceAgentId: null,
    agentDetails: null,
    fromLng: 'en',
    toLng: null,
    fromScript: null,
    toScript: null,
    webhookUrl: null,
    webhookAuthKey: null,
    webhookAuthSecret: null,
    mediaFile: null,
    previewToken: randomBytes(24).toString('base64url'),
    usageSeconds: 42,
    totalCost: 3,
    attempts: 1,
    leaseOwner: null,
    leaseExpiresAt: null,
    runAfter: 0,
    createdAt: at,
    updatedAt: at,
    ...fields,
  }
  runtime.store.jobs.insert(record)
  return record
}
