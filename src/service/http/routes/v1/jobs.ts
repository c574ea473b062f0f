import type { FastifyInstance, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import {
  AiContentBodySchema,
  AiContentEstimateBodySchema,
  AiContentEstimateEnvelopeSchema,
  AiContentJobEnvelopeSchema,
  CustomAiContentBodySchema,
  JobIdQuerySchema,
  JobListEnvelopeSchema,
  JobReadSchema,
  ListJobsBodySchema,
  ListJobsQuerySchema,
  SubtitlesQuerySchema,
  TextToSpeechBodySchema,
  TranscribeBodySchema,
  TranscribeEnvelopeSchema,
  TranscribeUploadFieldsSchema,
  TtsJobEnvelopeSchema,
} from '../../../../shared/api/jobs'
import {
  createAiContentJob,
  createCustomAiContentJob,
  createTextToSpeechJob,
  estimateAiContentJob,
  getAiContentJob,
  getJob,
  listJobs,
} from '../../../ops/jobs'
import type { OpsContext } from '../../../ops/ops-context'
import { sourceMediaName } from '../../../ops/media-names'
import { createTranscriptionJobFromUrl, jobSubtitles, titleOfUpload } from '../../../ops/transcription-jobs'
import { hasMultipartBody, readMediaUpload } from '../../media-upload'
import { SUBTITLE_CONTENT_TYPES } from '../../../../shared/text/subtitles'
import { callerOf } from '../../auth'
import { BODY_ERRORS, errorResponses, SECURITY } from '../../route-schemas'

const tags = ['Jobs']

export function registerJobRoutes(app: FastifyInstance, context: OpsContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()
  /** The media name each upload of a request was stored under, from its preValidation to its handler. */
  const uploads = new WeakMap<FastifyRequest, string>()

  routes.post('/jobs/text-to-speech', {
    schema: {
      tags,
      summary: 'Queue a text-to-speech job',
      operationId: 'createTextToSpeechJob',
      security: SECURITY,
      body: TextToSpeechBodySchema,
      // 404: a voiceAgentId (whose dictionaries apply) that is not an agent of the project.
      response: { 200: TtsJobEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404) },
    },
    handler: async (request) => ok(await createTextToSpeechJob(context, callerOf(request), request.body)),
  })

  routes.post('/jobs/transcribe', {
    config: { mediaUpload: true },
    // An upload is streamed into the media store first; the job then transcribes this service's
    // own URL of it, through the same body schema and use case as a JSON request.
    preValidation: async (request, reply) => {
      if (!hasMultipartBody(request)) return
      const upload = await readMediaUpload(request, reply, {
        fields: TranscribeUploadFieldsSchema,
        media: context.media,
        name: (fileName) => sourceMediaName(fileName),
        maxBytes: context.mediaIntake.maxUploadBytes,
        pace: context.mediaIntake,
      })
      uploads.set(request, upload.file.name)
      request.body = {
        ...upload.fields,
        title: upload.fields.title ?? titleOfUpload(upload.file.filename),
        mediaUrl: `${context.baseUrl()}/media/${upload.file.name}`,
      }
    },
    schema: {
      tags,
      summary: 'Queue a transcription of audio or video (a URL, or an upload)',
      description:
        'JSON with a `mediaUrl`, or `multipart/form-data` with a `file` part and the same fields as text parts. The job ends COMPLETED with the text, timed segments, language and duration in `jobResponse`, or FAILED (e.g. STT_ENGINE_NOT_CONFIGURED).',
      operationId: 'createTranscriptionJob',
      security: SECURITY,
      body: TranscribeBodySchema,
      response: { 200: TranscribeEnvelopeSchema, ...errorResponses(...BODY_ERRORS) },
    },
    handler: async (request) => {
      const job = await createTranscriptionJobFromUrl(context, callerOf(request), request.body, uploads.get(request))
      return ok({ ...job, jobId: job.id })
    },
  })

  routes.get('/jobs/subtitles', {
    schema: {
      tags,
      summary: "A finished transcription's or translation's segments as subtitles (SRT or WebVTT)",
      operationId: 'getJobSubtitles',
      security: SECURITY,
      querystring: SubtitlesQuerySchema,
      response: {
        200: z.string().meta({ description: 'The subtitles, as `application/x-subrip` or `text/vtt`.' }),
        ...errorResponses(400, 404, 409),
      },
    },
    handler: async (request, reply) => {
      const subtitles = await jobSubtitles(context, callerOf(request), request.query.jobId, request.query.format)
      return reply.type(SUBTITLE_CONTENT_TYPES[request.query.format]).send(subtitles)
    },
  })

  routes.post('/jobs/ai-content', {
    schema: {
      tags,
      summary: 'Queue AI content from a finished job with text',
      operationId: 'createAiContentJob',
      security: SECURITY,
      querystring: JobIdQuerySchema,
      body: AiContentBodySchema,
      response: { 200: AiContentJobEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404, 409) },
    },
    handler: async (request) => ok(await createAiContentJob(context, callerOf(request), request.query.jobId, request.body)),
  })

  routes.post('/jobs/ai-content/custom', {
    schema: {
      tags,
      summary: "Queue custom AI content from a finished job with text, each part from the user's own instruction",
      operationId: 'createCustomAiContentJob',
      security: SECURITY,
      querystring: JobIdQuerySchema,
      body: CustomAiContentBodySchema,
      response: { 200: AiContentJobEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404, 409) },
    },
    handler: async (request) => ok(await createCustomAiContentJob(context, callerOf(request), request.query.jobId, request.body)),
  })

  routes.post('/jobs/ai-content/estimate', {
    schema: {
      tags,
      summary: 'What an AI-content job (built-in or custom parts) from this job would charge',
      operationId: 'estimateAiContentJob',
      security: SECURITY,
      querystring: JobIdQuerySchema,
      body: AiContentEstimateBodySchema,
      response: { 200: AiContentEstimateEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404, 409) },
    },
    handler: async (request) => ok(await estimateAiContentJob(context, callerOf(request), request.query.jobId, request.body)),
  })

  routes.get('/jobs/ai-content', {
    schema: {
      tags,
      summary: 'Read an AI-content job (by its id, or the newest made from a source job)',
      operationId: 'getAiContentJob',
      security: SECURITY,
      querystring: JobIdQuerySchema,
      response: { 200: AiContentJobEnvelopeSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) => ok(await getAiContentJob(context, callerOf(request), request.query.jobId)),
  })

  routes.get('/jobs', {
    schema: {
      tags,
      summary: 'Read one job, with a link to its preview',
      operationId: 'getJob',
      security: SECURITY,
      querystring: JobIdQuerySchema,
      response: { 200: JobReadSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) => await getJob(context, callerOf(request), request.query.jobId),
  })

  routes.post('/jobs/all', {
    schema: {
      tags,
      summary: 'List jobs with filters, search, sort and pages',
      operationId: 'listJobs',
      security: SECURITY,
      querystring: ListJobsQuerySchema,
      body: ListJobsBodySchema,
      response: { 200: JobListEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 403) },
    },
    handler: async (request) => ok(await listJobs(context, callerOf(request), request.query.projectId, request.body, request.query)),
  })
}
