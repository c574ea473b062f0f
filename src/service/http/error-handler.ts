import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod'
import { ERROR_STATUS, errorEnvelope, type ErrorCode, type ErrorDetail } from '../../shared/api/errors'
import { ServiceError } from '../ops/service-error'
import { storageServiceError } from '../ops/storage-service-error'

/** Where Fastify says a validation failed, in the words of our error paths. */
const CONTEXT_PREFIX: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' }

/** Fastify's own request errors, as our codes and people's words. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Request bodies must be JSON, sent with Content-Type: application/json' },
  FST_ERR_CTP_INVALID_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'Request bodies must be JSON, sent with Content-Type: application/json' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than 1 MiB' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'VALIDATION_ERROR', message: 'Content-Length does not match the body that was sent' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'INVALID_JSON', message: 'The request body is empty' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON', message: 'The request body is not valid JSON' },
}

interface ZodIssueParams {
  keys?: string[]
}

function validationDetails(error: FastifyError): ErrorDetail[] {
  const prefix = CONTEXT_PREFIX[error.validationContext ?? 'body'] ?? 'body'
  return (error.validation ?? []).flatMap((issue) => {
    const path = [prefix, ...issue.instancePath.split('/').filter(Boolean)].join('.')
    const unknownKeys = (issue.params as ZodIssueParams).keys
    if (issue.keyword === 'unrecognized_keys' && unknownKeys) {
      return unknownKeys.map((key) => ({ path: `${path}.${key}`, message: `Unknown field "${key}"` }))
    }
    if (issue.keyword === 'invalid_type' && issue.instancePath === '/' && /received (undefined|null)/.test(issue.message ?? '')) {
      return [{ path: prefix, message: prefix === 'body' ? 'A JSON object body is required' : 'Required' }]
    }
    return [{ path, message: issue.message ?? 'Invalid value' }]
  })
}

function summary(details: ErrorDetail[]): string {
  const first = details[0]
  if (!first) return 'Invalid request'
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : ''
  return `Invalid request: ${first.path}: ${first.message}${more}`
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
    if (error instanceof ServiceError) return sendServiceError(reply, error)
    const storage = storageServiceError(error)
    if (storage) {
      onStorageFailure(error)
      return sendServiceError(reply, storage)
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const details = validationDetails(error)
      return reply.status(400).send(errorEnvelope('VALIDATION_ERROR', summary(details), details))
    }
    const known = error.code ? FASTIFY_ERRORS[error.code] : undefined
    if (known) return reply.status(ERROR_STATUS[known.code]).send(errorEnvelope(known.code, known.message))
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      const code: ErrorCode = status === 404 ? 'NOT_FOUND' : status === 413 ? 'PAYLOAD_TOO_LARGE' : status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'VALIDATION_ERROR'
      return reply.status(ERROR_STATUS[code]).send(errorEnvelope(code, error.message))
    }
    logInternal(error, request)
    return reply.status(500).send(errorEnvelope('INTERNAL', `Internal error (request ${request.id}); the service log has the details`))
  }
}
