import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import { TtsVoiceListEnvelopeSchema, TtsVoicesQuerySchema, VoiceListEnvelopeSchema } from '../../../../shared/api/voices'
import { VOICES } from '../../../../shared/voices'
import { listTtsVoices } from '../../../ops/voices'
import { errorResponses, SECURITY } from '../../route-schemas'

const tags = ['Voices']

export function registerVoiceRoutes(app: FastifyInstance): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.get('/voices', {
    schema: {
      tags,
      summary: 'List the 14 voices',
      operationId: 'listVoices',
      security: SECURITY,
      response: { 200: VoiceListEnvelopeSchema, ...errorResponses() },
    },
    handler: async () => ok([...VOICES]),
  })

  routes.get('/tts/voices', {
    schema: {
      tags,
      summary: 'List the voices with tags, in pages (skip is an offset)',
      operationId: 'listTtsVoices',
      security: SECURITY,
      querystring: TtsVoicesQuerySchema,
      response: { 200: TtsVoiceListEnvelopeSchema, ...errorResponses(400) },
    },
    handler: async (request) => ok(listTtsVoices(request.query)),
  })
}
