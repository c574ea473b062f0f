import { MEDIA_NAME, sourceMediaName } from './media-names'
import { baseRecord, requireJob, titleFrom, toJobDto } from './jobs'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { mediaCost } from './prices'
import { invalid, ServiceError } from './service-error'
import { requireWebhookTarget } from './webhook-target'
import type { Job, TranscribeBody, TranscribeUploadFields } from '../../shared/api/jobs'
import { toSubtitles, type SubtitleFormat, type SubtitleSegment } from '../../shared/text/subtitles'
import type { JobRecord } from '../../store/records'

/** The speech server's model, as transcription jobs show it in `systemModelKey`. */
const SYSTEM_MODEL_KEY = 'stt-openai-compatible'

/** An upload already in the media store, as `readMediaUpload` left it. */
export interface StoredUpload {
  mediaFile: string
  fileName?: string
}

/**
 * This service's own `/media/<name>` URL, when `url` is one: any loopback host name on this
 * service's port (a client may write localhost for 127.0.0.1). Its media is read from the store.
 */
export function ownMediaName(context: OpsContext, url: string): string | undefined {
  const parsed = new URL(url)
  const own = new URL(context.baseUrl())
  const loopback = ['127.0.0.1', 'localhost', '[::1]']
  const sameService = parsed.origin === own.origin || (loopback.includes(parsed.hostname) && loopback.includes(own.hostname) && parsed.port === own.port)
  const name = /^\/media\/([^/]+)$/.exec(parsed.pathname)?.[1]
  return sameService && name !== undefined && parsed.protocol === own.protocol ? decodeURIComponent(name) : undefined
}

/** A title from the media's file name (without its extension), else from its URL's host. */
function titleOfMedia(fileName: string | undefined, url: string | undefined): string {
  const base = fileName
    ?.split(/[\\/]/)
    .pop()
    ?.replace(/\.[A-Za-z0-9]{1,5}$/, '')
  if (base?.trim()) return titleFrom(base, 100)
  return url ? titleFrom(`Transcription of ${new URL(url).hostname}`, 100) : 'Transcription'
}

function transcriptionRecord(
  context: OpsContext,
  caller: Caller,
  fields: TranscribeUploadFields,
  media: { mediaFile: string; sourceUrl: string | null; title: string },
): JobRecord {
  if (fields.webhookUrl) requireWebhookTarget(context, fields.webhookUrl, 'webhookUrl')
  return {
    ...baseRecord(context, caller, timestamp(context)),
    type: 'TRANSCRIPTION',
    title: fields.title ? titleFrom(fields.title, 200) : media.title,
    model: fields.model.trim(),
    processingType: 'ASYNC',
    systemModelKey: SYSTEM_MODEL_KEY,
    fromLng: fields.language ?? null,
    webhookUrl: fields.webhookUrl ?? null,
    webhookAuthKey: fields.webhookAuth?.authKey ?? null,
    webhookAuthSecret: fields.webhookAuth?.authSecret !== undefined ? context.secrets.encrypt(fields.webhookAuth.authSecret) : null,
    mediaFile: media.mediaFile,
    sourceUrl: media.sourceUrl,
    // One minute's price until the job knows the media's length (it is priced again when it completes).
    totalCost: mediaCost('TRANSCRIPTION', 0),
  }
}

async function queue(context: OpsContext, record: JobRecord): Promise<Job> {
  await context.store.jobs.insert(record)
  context.jobEnqueued(record)
  return toJobDto(context, record)
}

/**
 * `POST /v1/jobs/transcribe` with a media URL. A URL elsewhere is fetched when the job runs
 * (the answer does not wait for a download); this service's own `/media/...` URL must name
 * media that exists, and is read from the store without a download.
 */
export async function createTranscriptionJobFromUrl(context: OpsContext, caller: Caller, body: TranscribeBody): Promise<Job> {
  const own = ownMediaName(context, body.mediaUrl)
  if (own !== undefined) {
    if (!MEDIA_NAME.test(own) || (await context.media.size(own)) === undefined) {
      throw invalid('mediaUrl', 'This service has no media at this URL (a /media/ URL of a job whose audio was made here is expected)')
    }
    return queue(context, transcriptionRecord(context, caller, body, { mediaFile: own, sourceUrl: body.mediaUrl, title: titleOfMedia(undefined, body.mediaUrl) }))
  }
  requireMediaTarget(context, body.mediaUrl)
  const path = new URL(body.mediaUrl).pathname
  const fileName = decodeURIComponent(path.split('/').pop() ?? '')
  return queue(
    context,
    transcriptionRecord(context, caller, body, { mediaFile: sourceMediaName(fileName), sourceUrl: body.mediaUrl, title: titleOfMedia(fileName, body.mediaUrl) }),
  )
}

/** `POST /v1/jobs/transcribe` with an upload, already streamed into the media store. */
export async function createTranscriptionJobFromUpload(context: OpsContext, caller: Caller, fields: TranscribeUploadFields, upload: StoredUpload): Promise<Job> {
  return queue(context, transcriptionRecord(context, caller, fields, { mediaFile: upload.mediaFile, sourceUrl: null, title: titleOfMedia(upload.fileName, undefined) }))
}

/** Media is fetched under the same address rules as webhooks are sent (the operator's allow-list included). */
function requireMediaTarget(context: OpsContext, url: string): void {
  const reason = context.webhookAddresses.refusedUrlReason(url)
  if (reason) throw invalid('mediaUrl', reason)
}

/** `GET /v1/jobs/subtitles?jobId=&format=`: a COMPLETED transcription's or translation's segments as SRT or WebVTT. */
export async function jobSubtitles(context: OpsContext, caller: Caller, jobId: string, format: SubtitleFormat): Promise<string> {
  const record = await requireJob(context, caller, jobId)
  if (record.type !== 'TRANSCRIPTION' && record.type !== 'TRANSLATION') {
    throw new ServiceError('CONFLICT', `Job ${jobId} is ${record.type}; subtitles are made from TRANSCRIPTION and TRANSLATION jobs`)
  }
  if (record.status !== 'COMPLETED') throw new ServiceError('CONFLICT', `Job ${jobId} is ${record.status}; subtitles need a COMPLETED job`)
  const segments = record.jobResponse?.segments
  if (!Array.isArray(segments)) throw new ServiceError('CONFLICT', `Job ${jobId} has no timed segments to make subtitles from`)
  return toSubtitles(segments as SubtitleSegment[], format)
}
