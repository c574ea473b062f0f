import { randomBytes, randomUUID } from 'node:crypto'
import type { Runtime } from '../../src/service/runtime'
import type { Repositories } from '../../src/store/ports'
import type { JobRecord } from '../../src/store/records'

/**
 * Writes a job straight into the store, as a finished transcription or translation would
 * be: VoiceDesk has no speech-to-text engine yet, so tests and benchmarks seed such jobs.
 * Give `apiKeyId` when seeding many, to spare a key lookup per job, and a transaction's handle
 * as `repositories` to write many in one commit.
 */
export async function seedJob(runtime: Runtime, fields: Partial<JobRecord> = {}, repositories: Repositories = runtime.store): Promise<JobRecord> {
  const at = fields.createdAt ?? new Date().toISOString()
  const record: JobRecord = {
    id: randomUUID(),
    projectId: runtime.bootstrap.projectId,
    apiKeyId: fields.apiKeyId ?? (await repositories.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id,
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
  await repositories.jobs.insert(record)
  return record
}

/** Seeds `count` jobs in one transaction, in order (`fieldsOf(index)` for each); answers them in that order. */
export function seedJobs(runtime: Runtime, count: number, fieldsOf: (index: number) => Partial<JobRecord> = () => ({})): Promise<JobRecord[]> {
  return runtime.store.transaction(async (tx) => {
    const apiKeyId = (await tx.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id
    const jobs: JobRecord[] = []
    for (let index = 0; index < count; index += 1) jobs.push(await seedJob(runtime, { apiKeyId, ...fieldsOf(index) }, tx))
    return jobs
  })
}
