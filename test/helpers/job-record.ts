import { randomBytes, randomUUID } from 'node:crypto'
import type { JobRecord } from '../../src/store/records'

/**
 * A whole job record for tests that write jobs straight into a store (or a store double): a
 * finished transcription by default, with every field of the record set, so a new field of
 * JobRecord is added here once. Callers give what their test is about.
 */
export function jobRecord(fields: Partial<JobRecord> = {}): JobRecord {
  const at = fields.createdAt ?? new Date().toISOString()
  return {
    // Random values only when not given: a caller making 100,000 records gives its own, and
    // randomBytes per record was a tenth of such a file's CPU.
    id: fields.id ?? randomUUID(),
    projectId: 'project-1',
    apiKeyId: 'key-1',
    userId: 'user-1',
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
    sourceUrl: null,
    progress: null,
    previewToken: fields.previewToken ?? randomBytes(24).toString('base64url'),
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
}
