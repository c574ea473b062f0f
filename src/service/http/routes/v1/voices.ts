import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import { VoiceListEnvelopeSchema } from '../../../../shared/api/voices'
import { VOICES } from '../../../../shared/voices'
import { errorResponses, SECURITY } from '../../route-schemas'

export function registerVoiceRoutes(app: FastifyInstance): void {
  app.withTypeProvider<ZodTypeProvider>().get('/voices', {
    schema: { tags: ['Voices'], summary: 'List the 14 voices', security: SECURITY, response: { 200: VoiceListEnvelopeSchema, ...errorResponses() } },
    handler: async () => ok([...VOICES]),
  })
}
