import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { ok } from '../../../../shared/api/common'
import { DeletedEnvelopeSchema } from '../../../../shared/api/voice-agents'
import {
  AddPhoneNumberRequestSchema,
  AddProviderNumberBodySchema,
  ProviderNumberEnvelopeSchema,
  AssignNumberBodySchema,
  ListPhoneNumbersQuerySchema,
  PhoneNumberEnvelopeSchema,
  PhoneNumberIdQuerySchema,
  PhoneNumberListEnvelopeSchema,
  UnassignNumberBodySchema,
} from '../../../../shared/api/phone-numbers'
import type { OpsContext } from '../../../ops/ops-context'
import {
  addPhoneNumber,
  assignPhoneNumber,
  deletePhoneNumber,
  getPhoneNumber,
  listPhoneNumbers,
  unassignPhoneNumber,
} from '../../../ops/phone-numbers'
import { callerOf } from '../../auth'
import { BODY_ERRORS, errorResponses, SECURITY } from '../../route-schemas'

const tags = ['Phone numbers']

export function registerPhoneNumberRoutes(app: FastifyInstance, context: OpsContext): void {
  const routes = app.withTypeProvider<ZodTypeProvider>()

  routes.post('/voice-agents/phone-number', {
    schema: {
      tags,
      summary: 'Register a phone number',
      operationId: 'addPhoneNumber',
      security: SECURITY,
      body: AddPhoneNumberRequestSchema,
      response: { 200: PhoneNumberEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 409) },
    },
    handler: async (request) => ok(await addPhoneNumber(context, callerOf(request), request.body)),
  })

  routes.post('/voice-agents/twilio/phone-number', {
    schema: {
      tags,
      summary: "Register a phone number in the provider's words (stored as a TELEPHONY number)",
      operationId: 'addProviderPhoneNumber',
      security: SECURITY,
      body: AddProviderNumberBodySchema,
      response: { 200: ProviderNumberEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 409) },
    },
    handler: async (request) => {
      const number = await addPhoneNumber(context, callerOf(request), request.body.number)
      return ok({ ...number, numberSid: request.body.numberSid, isActive: true as const })
    },
  })

  routes.get('/voice-agents/phone-number', {
    schema: {
      tags,
      summary: 'Read a phone number',
      operationId: 'getPhoneNumber',
      security: SECURITY,
      querystring: PhoneNumberIdQuerySchema,
      response: { 200: PhoneNumberEnvelopeSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) => ok(await getPhoneNumber(context, callerOf(request), request.query.pid)),
  })

  routes.get('/voice-agents/phone-number/list', {
    schema: {
      tags,
      summary: 'List phone numbers',
      operationId: 'listPhoneNumbers',
      security: SECURITY,
      querystring: ListPhoneNumbersQuerySchema,
      response: { 200: PhoneNumberListEnvelopeSchema, ...errorResponses(400) },
    },
    handler: async (request, reply) => {
      const page = await listPhoneNumbers(context, callerOf(request), request.query)
      // The reference's list is a bare array: the count of matching numbers travels as a header.
      void reply.header('x-total-count', String(page.filtered))
      return ok(page.phoneNumbers)
    },
  })

  routes.delete('/voice-agents/phone-number', {
    schema: {
      tags,
      summary: 'Delete a phone number',
      operationId: 'deletePhoneNumber',
      security: SECURITY,
      querystring: PhoneNumberIdQuerySchema,
      response: { 200: DeletedEnvelopeSchema, ...errorResponses(400, 404) },
    },
    handler: async (request) => ok(await deletePhoneNumber(context, callerOf(request), request.query.pid)),
  })

  routes.post('/voice-agents/assign-number', {
    schema: {
      tags,
      summary: 'Assign a number to an agent (moves it if it was on another agent)',
      operationId: 'assignPhoneNumber',
      security: SECURITY,
      body: AssignNumberBodySchema,
      response: { 200: PhoneNumberEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404) },
    },
    handler: async (request) => ok(await assignPhoneNumber(context, callerOf(request), request.body)),
  })

  routes.post('/voice-agents/unassign', {
    schema: {
      tags,
      summary: 'Take a number off its agent',
      operationId: 'unassignPhoneNumber',
      security: SECURITY,
      body: UnassignNumberBodySchema,
      response: { 200: PhoneNumberEnvelopeSchema, ...errorResponses(...BODY_ERRORS, 404) },
    },
    handler: async (request) => ok(await unassignPhoneNumber(context, callerOf(request), request.body)),
  })
}
