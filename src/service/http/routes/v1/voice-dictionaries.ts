import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import {
  CreateVoiceDictionaryBodySchema,
  DictionaryActivationEnvelopeSchema,
  ListVoiceDictionariesQuerySchema,
  ToggleDictionaryActivationBodySchema,
  UpdateVoiceDictionaryBodySchema,
  VoiceDictionaryDeletedEnvelopeSchema,
  VoiceDictionaryEnvelopeSchema,
  VoiceDictionaryIdParamsSchema,
  VoiceDictionaryListEnvelopeSchema,
} from '../../../../shared/api/voice-dictionaries'
import type { OpsContext } from '../../../ops/ops-context'
import {
  createVoiceDictionary,
  deleteVoiceDictionary,
  getVoiceDictionary,
  listVoiceDictionaries,
  toggleDictionaryActivation,
  updateVoiceDictionary,
} from '../../../ops/voice-dictionaries'
import { callerOf } from '../../auth'
import { BODY_ERRORS, errorResponses, SECURITY } from '../../route-schemas'

const tags = ['Voice dictionaries']
const BASE = '/voice-agents/voice-dictionaries'

/** Voice dictionaries (docs/api.md, "Voice dictionaries"): words the agents' voices say differently. */
export function registerVoiceDictionaryRoutes(app: FastifyInstance, context: OpsContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.post(BASE, {
    schema: {
      tags,
      summary: 'Create a voice dictionary',
      operationId: 'createVoiceDictionary',
      security: SECURITY,
      body: CreateVoiceDictionaryBodySchema,
      response: { 200: VoiceDictionaryEnvelopeSchema, ...errorResponses(...BODY_ERRORS) },
    },
    handler: async (request) => createVoiceDictionary(context, callerOf(request), request.body),
  })

  routes.get(`${BASE}/list`, {
    schema: {
      tags,
      summary: 'List voice dictionaries',
      operationId: 'listVoiceDictionaries',
      security: SECURITY,
      querystring: ListVoiceDictionariesQuerySchema,
      response: { 200: VoiceDictionaryListEnvelopeSchema, ...errorResponses(400) },
    },
    handler: async (request) => ok(await listVoiceDictionaries(context, callerOf(request), request.query)),
  })

  routes.post(`${BASE}/toggle-activation`, {
    schema: {
      tags,
      summary: 'Activate or deactivate a voice dictionary for an agent',
      operationId: 'toggleVoiceDictionaryActivation',
      security: SECURITY,
      body: ToggleDictionaryActivationBodySchema,
      response: { 200: DictionaryActivationEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404, 409) },
    },
    handler: async (request) => toggleDictionaryActivation(context, callerOf(request), request.body),
  })

  routes.get(`${BASE}/:id`, {
    schema: {
      tags,
      summary: 'Read a voice dictionary with its words',
      operationId: 'getVoiceDictionary',
      security: SECURITY,
      params: VoiceDictionaryIdParamsSchema,
      response: { 200: VoiceDictionaryEnvelopeSchema, ...errorResponses(404) },
    },
    handler: async (request) => getVoiceDictionary(context, callerOf(request), request.params.id),
  })

  routes.patch(`${BASE}/:id`, {
    schema: {
      tags,
      summary: "Change a voice dictionary's name or words (the words are replaced whole)",
      operationId: 'updateVoiceDictionary',
      security: SECURITY,
      params: VoiceDictionaryIdParamsSchema,
      body: UpdateVoiceDictionaryBodySchema,
      response: { 200: VoiceDictionaryEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404) },
    },
    handler: async (request) => updateVoiceDictionary(context, callerOf(request), request.params.id, request.body),
  })

  routes.delete(`${BASE}/:id`, {
    schema: {
      tags,
      summary: 'Delete a voice dictionary (its agents stop using it)',
      operationId: 'deleteVoiceDictionary',
      security: SECURITY,
      params: VoiceDictionaryIdParamsSchema,
      response: { 200: VoiceDictionaryDeletedEnvelopeSchema, ...errorResponses(404) },
    },
    handler: async (request) => deleteVoiceDictionary(context, callerOf(request), request.params.id),
  })
}
