import { ownMediaName } from '../media-intake/own-media-url'
import { MEDIA_NAME, sourceMediaName } from './media-names'
import { baseRecord, requireJob, titleFrom, toJobDto } from './jobs'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { mediaCost } from './prices'
import { invalid, ServiceError } from './service-error'
import { requireWebhookTarget } from './webhook-target'
import type { Job, TranscribeBody, TranscribeUploadFields } from '../../shared/api/jobs'
import { toSubtitles, type SubtitleFormat, type SubtitleSegment } from '../../shared/text/subtitles'
import type { JobRecord } from '../../store/records'
import { SRT_LAYOUT_DEFAULTS } from '../../shared/text/srt-layout'
import type { AiPart } from '../../shared/api/ai-parts'

/** The speech server's model, as transcription jobs show it in `systemModelKey`. */
const SYSTEM_MODEL_KEY = 'stt-openai-compatible'

/** A title from a file name, without its extension (undefined when nothing is left to show). */
export function titleOfUpload(fileName: string | undefined): string | undefined {
  const base = fileName
    ?.split(/[\\/]/)
    .pop()
    ?.replace(/\.[A-Za-z0-9]{1,5}$/, '')
  return base?.trim() ? titleFrom(base, 200) : undefined
}

/** A title from the media URL's file name, else its host. */
function titleOfUrl(url: URL): string {
  let fileName: string | undefined
  try {
    fileName = decodeURIComponent(url.pathname.split('/').pop() ?? '')
  } catch {
    fileName = undefined
  }
  return titleOfUpload(fileName) ?? titleFrom(`Transcription of ${url.hostname}`, 200)
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
    // What the runner needs to know besides the media: the subtitle layout, when subtitles were asked for.
    jobResponse: fields.returnSrtFormat === true ? { srtOptions: { ...SRT_LAYOUT_DEFAULTS, ...fields.srtOptions } } : null,
    // One minute's price until the job knows the media's length (it is priced again when it completes).
    totalCost: mediaCost('TRANSCRIPTION', 0),
  }
}

async function queue(context: OpsContext, record: JobRecord): Promise<Job> {
  await context.store.jobs.insert(record)
  context.jobEnqueued(record)
  return toJobDto(context, record)
}

/** AI content a transcription makes once it COMPLETED (/v2's generate-transcription-ai-content). */
export interface AiContentFollowUp {
  aiParts: AiPart[]
  title?: string
}

/**
 * `POST /v1/jobs/transcribe`. A URL is fetched when the job runs (the answer does not wait for a
 * download); this service's own `/media/...` URL must name media that exists, and is copied from
 * the media store then, without HTTP (each job owns its media: a TTS job's audio stays its own).
 * `uploaded`: the name an upload was just streamed to, which the job takes as its media.
 */
export async function createTranscriptionJobFromUrl(
  context: OpsContext,
  caller: Caller,
  body: TranscribeBody,
  uploaded?: string,
  aiContent?: AiContentFollowUp,
): Promise<Job> {
  const url = new URL(body.mediaUrl)
  const withFollowUp = (record: JobRecord): JobRecord =>
    aiContent === undefined ? record : { ...record, jobResponse: { ...record.jobResponse, aiContentRequest: aiContent } }
  if (uploaded !== undefined)
    return queue(
      context,
      withFollowUp(transcriptionRecord(context, caller, body, { mediaFile: uploaded, sourceUrl: null, title: titleOfUrl(url) })),
    )
  const own = ownMediaName(url, context.baseUrl())
  if (own !== undefined) {
    if (!MEDIA_NAME.test(own) || (await context.media.size(own)) === undefined) {
      throw invalid('mediaUrl', 'This service has no media at this URL (a /media/ URL of audio made or uploaded here is expected)')
    }
  } else {
    requireMediaTarget(context, body.mediaUrl)
  }
  return queue(
    context,
    withFollowUp(
      transcriptionRecord(context, caller, body, {
        mediaFile: sourceMediaName(url.pathname.split('/').pop()),
        sourceUrl: body.mediaUrl,
        title: titleOfUrl(url),
      }),
    ),
  )
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
