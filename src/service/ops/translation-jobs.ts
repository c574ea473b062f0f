import { guessSourceLanguage } from '../../engines/ai-content/translation-language'
import type { Job } from '../../shared/api/jobs'
import type { TranslateBody } from '../../shared/api/translation-jobs'
import type { JobRecord } from '../../store/records'
import { baseRecord, requireJob, titleFrom, toJobDto } from './jobs'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { mediaCost, translationTextCost } from './prices'
import { invalid, ServiceError } from './service-error'
import { requireWebhookTarget } from './webhook-target'
import { present } from '../../shared/present'

/** Job types whose COMPLETED result a translation starts from. */
const TRANSLATABLE_TYPES: readonly JobRecord['type'][] = ['TRANSCRIPTION', 'TRANSLATION']

const LANGUAGE_NAMES: Record<string, string> = { ar: 'Arabic', en: 'English' }

/**
 * `POST /v1/jobs/translate`: queues a translation of a COMPLETED transcription or translation
 * of the caller's project (`jobId`), or of a text. A text source is kept in the job's `text`
 * until the job runs; the translation then takes its place there (searched, and read by AI
 * content), and `jobResponse.sourceText` keeps the source. Paths of refusals are relative to the body.
 */
export async function createTranslationJob(context: OpsContext, caller: Caller, body: TranslateBody): Promise<Job> {
  if (body.webhookUrl) requireWebhookTarget(context, body.webhookUrl, 'webhookUrl')
  const source = body.jobId === undefined ? undefined : await translatableSource(context, caller, body.jobId)
  // The body's schema requires jobId or text; translatableSource a source with text.
  const sourceText = present(source ? source.text : body.text, 'the text to translate')
  const fromLng = body.fromLng ?? (source ? languageOfJob(source) : guessSourceLanguage(sourceText))
  if (fromLng === body.toLng) {
    const whose = source ? `job ${source.id} is` : 'the text is'
    throw invalid(
      'toLng',
      `${whose} already in ${LANGUAGE_NAMES[fromLng] ?? fromLng}: ask for the other language (give fromLng when the source is in fact in another one)`,
    )
  }
  const record: JobRecord = {
    ...baseRecord(context, caller, timestamp(context)),
    type: 'TRANSLATION',
    title: body.title ?? titleFrom(`Translation (${body.toLng}): ${source ? source.title : sourceText}`, 100),
    ...(await context.translationModel()),
    relevantJobId: source?.id ?? null,
    text: source ? null : sourceText,
    fromLng,
    toLng: body.toLng,
    webhookUrl: body.webhookUrl ?? null,
    webhookAuthKey: body.webhookAuth?.authKey ?? null,
    webhookAuthSecret: body.webhookAuth?.authSecret !== undefined ? context.secrets.encrypt(body.webhookAuth.authSecret) : null,
    totalCost: source?.usageSeconds != null ? mediaCost('TRANSLATION', source.usageSeconds) : translationTextCost(sourceText),
  }
  await context.store.jobs.insert(record)
  context.jobEnqueued(record)
  return toJobDto(context, record)
}

/** The source job: the caller's (404), a transcription or translation (409), COMPLETED (409), with text (409). */
async function translatableSource(context: OpsContext, caller: Caller, jobId: string): Promise<JobRecord> {
  const source = await requireJob(context, caller, jobId)
  if (!TRANSLATABLE_TYPES.includes(source.type)) {
    const message = `Job ${jobId} is ${source.type}; a translation starts from a TRANSCRIPTION or TRANSLATION job (or give text)`
    throw new ServiceError('CONFLICT', message, [{ path: 'jobId', message: `A ${source.type} job cannot be translated` }])
  }
  if (source.status !== 'COMPLETED') {
    const message = `Job ${jobId} is ${source.status}; a translation needs a COMPLETED job`
    throw new ServiceError('CONFLICT', message, [{ path: 'jobId', message: 'Not a COMPLETED job' }])
  }
  if (!source.text?.trim()) {
    throw new ServiceError('CONFLICT', `Job ${jobId} has no text to translate`, [{ path: 'jobId', message: 'The job has no text' }])
  }
  return source
}

/** A source job's language: a translation's target, a transcription's detected (else asked-for) language, else a guess from its text. */
function languageOfJob(source: JobRecord): string | null {
  if (source.type === 'TRANSLATION' && source.toLng) return source.toLng
  const detected = source.jobResponse?.language
  if (typeof detected === 'string' && detected) return detected
  return source.fromLng ?? guessSourceLanguage(source.text ?? '')
}
