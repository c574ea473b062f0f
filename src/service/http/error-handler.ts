import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { ERROR_STATUS, errorEnvelope, type ErrorCode } from '../../shared/api/errors'
import { ServiceError, withDetailPaths } from '../ops/service-error'
import { storageServiceError } from '../ops/storage-service-error'
import { joinPath, validationDetails, validationSummary, type ValidationIssue } from '../ops/validation-details'
import { RequestError } from './request-error'

/** Where Fastify says a validation failed, in the words of our error paths. */
const CONTEXT_PREFIX: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' }

/** Fastify's own request errors, as our codes and people's words. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Request bodies must be JSON, sent with Content-Type: application/json',
  },
  FST_ERR_CTP_INVALID_TYPE: {
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'Request bodies must be JSON, sent with Content-Type: application/json',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 1 MiB' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'VALIDATION_ERROR', message: 'Content-Length does not match the body that was sent' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID_JSON', message: 'The request body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON', message: 'The request body is not valid JSON' },
}

interface ZodIssueParams {
  keys?: string[]
}

/** Fastify's validation error back as zod's issues (the provider keeps the code, message and other fields). */
function validationIssues(error: FastifyError): ValidationIssue[] {
  return (error.validation ?? []).map((issue) => ({
    code: issue.keyword,
    path: issue.instancePath.split('/').filter(Boolean),
    message: issue.message ?? 'Invalid value',
    keys: (issue.params as ZodIssueParams).keys,
  }))
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null

/**
 * Where in the request a use case's input path lies: the part (body, query, params) that
 * holds its first field, so `webhookUrl` is `body.webhookUrl` and `projectId` on
 * `POST /v1/jobs/all?projectId=` is `query.projectId`. A field no part holds is the body's.
 */
function requestPathOf(request: FastifyRequest, path: string): string {
  const [field = ''] = path.split('.')
  const parts: [string, unknown][] = [
    ['body', request.body],
    ['query', request.query],
    ['params', request.params],
  ]
  const [where] = parts.find(([, value]) => field !== '' && isRecord(value) && Object.hasOwn(value, field)) ?? ['body']
  return joinPath(where, path)
}

export type ErrorLogger = (error: unknown, request: FastifyRequest) => void

function sendServiceError(reply: FastifyReply, error: ServiceError) {
  if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds))
  return reply.status(error.status).send(errorEnvelope(error.code, error.message, error.details))
}

/**
 * Turns every failure into the contract's envelope; 5xx answers never carry internals. A
 * full disk (507) and a busy database (503) are the data folder's state, not VoiceDesk's
 * fault: they go to `onStorageFailure` (which logs the condition once), not to the 500 log.
 */
export function createErrorHandler(logInternal: ErrorLogger, onStorageFailure: (error: unknown) => void = () => {}) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    // The HTTP layer's own refusals name request paths already; a use case's are relative to its input.
    if (error instanceof RequestError) return sendServiceError(reply, error)
    if (error instanceof ServiceError)
      return sendServiceError(
        reply,
        withDetailPaths(error, (path) => requestPathOf(request, path), 'Invalid request'),
      )
    const storage = storageServiceError(error)
    if (storage) {
      onStorageFailure(error)
      return sendServiceError(reply, storage)
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = validationDetails(validationIssues(error), CONTEXT_PREFIX[error.validationContext ?? 'body'] ?? 'body')
      return reply.status(400).send(errorEnvelope('VALIDATION_ERROR', validationSummary('Invalid request', details), details))
    }
    const known = error.code ? FASTIFY_ERRORS[error.code] : undefined
    if (known) {
      // A route with a larger body limit of its own (realtime STT's base64 audio) says its own size.
      const limit = request.routeOptions.bodyLimit
      const message =
        error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' && limit !== undefined && limit !== 1024 * 1024
          ? `The request body is larger than ${Math.round(limit / 1024 / 1024)} MiB`
          : known.message
      return reply.status(ERROR_STATUS[known.code]).send(errorEnvelope(known.code, message))
    }
    const status = error.statusCode ?? 500
    // A range outside a media file (from the static file server): 416 as players expect, in the envelope.
    if (status === 416) return reply.status(416).send(errorEnvelope('VALIDATION_ERROR', 'The requested range lies outside this media'))
    if (status >= 400 && status < 500) {
      const code: ErrorCode =
        status === 404 ? 'NOT_FOUND' : status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_ERROR'
      return reply.status(ERROR_STATUS[code]).send(errorEnvelope(code, error.message))
    }
    logInternal(error, request)
    return reply.status(500).send(errorEnvelope('INTERNAL', `Internal error (request ${request.id}); the service log has the details`))
  }
}
