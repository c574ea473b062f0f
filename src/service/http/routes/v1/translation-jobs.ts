import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import { TranslateBodySchema, TranslationJobEnvelopeSchema } from '../../../../shared/api/translation-jobs'
import type { OpsContext } from '../../../ops/ops-context'
import { createTranslationJob } from '../../../ops/translation-jobs'
import { callerOf } from '../../auth'
import { BODY_ERRORS, errorResponses, SECURITY } from '../../route-schemas'

/** `POST /v1/jobs/translate`: VoiceDesk's own route (the cloud's public reference shows none for making a translation). */
export function registerTranslationJobRoutes(app: FastifyInstance, context: OpsContext): void {
  app.withTypeProvider<ZodTypeProvider>().post('/jobs/translate', {
    schema: {
      tags: ['Jobs'],
      summary: 'Queue a translation of a finished transcription or translation, or of a text, into Arabic or English',
      description:
        "VoiceDesk's own route: the cloud's public reference does not show how a translation is made. Runs through the language-model engine (`voicedesk ai-engine openai-compatible`); with none, the job ends FAILED with LLM_ENGINE_NOT_CONFIGURED.",
      operationId: 'createTranslationJob',
      security: SECURITY,
      body: TranslateBodySchema,
      response: { 200: TranslationJobEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404, 409) },
    },
    handler: async (request) => ok(await createTranslationJob(context, callerOf(request), request.body)),
  })
}
