import type { Job } from '../shared/api/jobs'
import { ConversationStateSchema, type RecordingState } from '../shared/api/conversations'
import { JobErrorCodeSchema, type JobErrorCode } from '../shared/api/job-error-codes'
import type { JobRecord } from '../store/records'

/**
 * A job as the API shows it, built from its record alone: the `data` of job.completed and
 * job.failed, and (the same shape) GET /v1/jobs/:id. `baseUrl` is where clients reach this
 * service now, for the media URLs composed from stored file names.
 */
export function jobPayload(record: JobRecord, baseUrl: string): Job {
  return {
    id: record.id,
    title: record.title,
    model: record.model,
    type: record.type,
    processingType: record.processingType,
    webhookUrl: record.webhookUrl,
    totalCost: record.totalCost,
    usageTime: usageTimeOf(record),
    fromLng: record.fromLng,
    toLng: record.toLng,
    fromScript: record.fromScript,
    toScript: record.toScript,
    mediaUrl: jobMediaUrl(record, baseUrl),
    jobResponse: jobResponseOf(record, baseUrl),
    status: record.status,
    ...jobErrorOf(record),
    relevantJobId: record.relevantJobId,
    agentDetails: record.agentDetails,
    apiKeyId: record.apiKeyId,
    billingId: null,
    userId: record.userId,
    systemModelKey: record.systemModelKey,
    voiceAgentId: record.voiceAgentId,
    ...(record.status === 'PENDING' && record.progress !== null ? { progress: record.progress } : {}),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

export function jobMediaUrl(record: JobRecord, baseUrl: string): string | null {
  if (record.type === 'CONVERSATION' && recordingStateOf(record) !== 'stored') return null
  // A transcription shows the URL its client gave; an upload, where this service serves it.
  if (record.sourceUrl !== null) return record.sourceUrl
  return record.mediaFile ? `${baseUrl}/media/${record.mediaFile}` : null
}

/**
 * Where a call's recording is. It is stored when the call itself ends it: COMPLETED, or FAILED
 * because an engine failed mid-call; unless the disk was full then, when the call's state says
 * it waits for room or was lost (CallRecordings). A call that never started, or whose service
 * died, has none.
 */
export function recordingStateOf(record: JobRecord): RecordingState | null {
  if (!(record.status === 'COMPLETED' || (record.status === 'FAILED' && record.errorCode === 'DIALOGUE_ENGINE_FAILED'))) return null
  const stated = ConversationStateSchema.shape.recording.safeParse((record.jobResponse as { recording?: unknown } | null)?.recording)
  return (stated.success ? stated.data : undefined) ?? 'stored'
}

/** The stored response, with the URLs composed for the address the service has now. */
function jobResponseOf(record: JobRecord, baseUrl: string): Record<string, unknown> | null {
  if (record.type === 'TTS') return { text: record.text ?? '', ttsMediaFile: jobMediaUrl(record, baseUrl) }
  return record.jobResponse
}

/**
 * A FAILED job's error. A stored code outside the contract's list (a record written by another
 * version, or by hand) is shown as INTERNAL with its message, so the answer keeps to its schema.
 */
export function jobErrorOf(record: JobRecord): { error?: { code: JobErrorCode; message: string } } {
  if (record.status !== 'FAILED') return {}
  const code = JobErrorCodeSchema.safeParse(record.errorCode)
  return { error: { code: code.success ? code.data : 'INTERNAL', message: record.errorMessage ?? 'The job failed' } }
}

export function usageTimeOf(record: JobRecord): string | null {
  return record.usageSeconds === null ? null : record.usageSeconds.toFixed(3)
}
