import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import {
  V2CreateJobBodySchema,
  V2CreateVoiceAgentBodySchema,
  V2JobIdEnvelopeSchema,
  V2JobListEnvelopeSchema,
  V2ListJobsQuerySchema,
  V2TranscriptionAiContentBodySchema,
  V2UpdateVoiceAgentBodySchema,
  V2VoiceAgentEnvelopeSchema,
  V2VoiceAgentListEnvelopeSchema,
} from '../../../../shared/api/v2'
import { ListVoiceAgentsQuerySchema, VoiceAgentIdParamsSchema } from '../../../../shared/api/voice-agents'
import type { OpsContext } from '../../../ops/ops-context'
import {
  v2CreateJob,
  v2CreateVoiceAgent,
  v2GetVoiceAgent,
  v2ListJobs,
  v2ListVoiceAgents,
  v2TranscriptionAiContent,
  v2UpdateVoiceAgent,
} from '../../../ops/v2'
import { callerOf } from '../../auth'
import { BODY_ERRORS, errorResponses, SECURITY } from '../../route-schemas'

const tags = ['v2']

/** The /v2 envelope: /v1's with the reference's `messageKey`. */
function v2Ok<T>(data: T, message = 'Operation completed successfully') {
  return { success: true as const, message, messageKey: 'OPERATION_SUCCESSFUL', data }
}

/** The cloud's /v2 operations, served by /v1's use cases (docs/api.md, "The /v2 surface"). */
export function registerV2Routes(app: FastifyInstance, context: OpsContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.get('/voice-agents', {
    schema: {
      tags,
      summary: 'List voice agents (/v2 shape)',
      operationId: 'v2ListVoiceAgents',
      security: SECURITY,
      querystring: ListVoiceAgentsQuerySchema,
      response: { 200: V2VoiceAgentListEnvelopeSchema, ...errorResponses(400) },
    },
    handler: async (request) => v2Ok(await v2ListVoiceAgents(context, callerOf(request), request.query)),
  })

  routes.post('/voice-agents', {
    schema: {
      tags,
      summary: 'Create a voice agent (/v2 shape)',
      operationId: 'v2CreateVoiceAgent',
      security: SECURITY,
      body: V2CreateVoiceAgentBodySchema,
      response: { 200: V2VoiceAgentEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404) },
    },
    handler: async (request) =>
      v2Ok(await v2CreateVoiceAgent(context, callerOf(request), request.body), 'Voice agent created successfully'),
  })

  routes.get('/voice-agents/:voiceAgentId', {
    schema: {
      tags,
      summary: 'Read a voice agent (/v2 shape)',
      operationId: 'v2GetVoiceAgent',
      security: SECURITY,
      params: VoiceAgentIdParamsSchema,
      response: { 200: V2VoiceAgentEnvelopeSchema, ...errorResponses(404) },
    },
    handler: async (request) => v2Ok(await v2GetVoiceAgent(context, callerOf(request), request.params.voiceAgentId)),
  })

  routes.patch('/voice-agents/:voiceAgentId', {
    schema: {
      tags,
      summary: 'Update a voice agent (/v2 shape)',
      operationId: 'v2UpdateVoiceAgent',
      security: SECURITY,
      params: VoiceAgentIdParamsSchema,
      body: V2UpdateVoiceAgentBodySchema,
      response: { 200: V2VoiceAgentEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404) },
    },
    handler: async (request) =>
      v2Ok(
        await v2UpdateVoiceAgent(context, callerOf(request), request.params.voiceAgentId, request.body),
        'Voice agent updated successfully',
      ),
  })

  routes.get('/jobs', {
    schema: {
      tags,
      summary: 'List jobs (/v2 shape: pages of id, title, media, cost, status)',
      operationId: 'v2ListJobs',
      security: SECURITY,
      querystring: V2ListJobsQuerySchema,
      response: { 200: V2JobListEnvelopeSchema, ...errorResponses(400, 403) },
    },
    handler: async (request) => v2Ok(await v2ListJobs(context, callerOf(request), request.query)),
  })

  routes.post('/jobs', {
    schema: {
      tags,
      summary: 'Create a transcription job (/v2), answered { jobId }',
      operationId: 'v2CreateJob',
      security: SECURITY,
      body: V2CreateJobBodySchema,
      response: { 200: V2JobIdEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 403) },
    },
    handler: async (request) => v2Ok(await v2CreateJob(context, callerOf(request), request.body), 'Transcription started'),
  })

  routes.post('/jobs/generate-transcription-ai-content', {
    schema: {
      tags,
      summary: 'Transcribe media, then make AI content from it (answers the transcription id)',
      description: 'Read the AI content with GET /v1/jobs/ai-content?jobId=<the jobId answered> once the transcription COMPLETED.',
      operationId: 'v2GenerateTranscriptionAiContent',
      security: SECURITY,
      body: V2TranscriptionAiContentBodySchema,
      response: { 200: V2JobIdEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 403) },
    },
    handler: async (request) => v2Ok(await v2TranscriptionAiContent(context, callerOf(request), request.body), 'AI content started'),
  })
}
