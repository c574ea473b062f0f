import type { z } from 'zod'
import type { ErrorDetail } from '../../shared/api/errors'
import { IPC_OPERATIONS, type IpcError, type IpcOperationName, type IpcResult } from '../../shared/ipc/operations'
import { ServiceError } from '../ops/service-error'
import { storageServiceError } from '../ops/storage-service-error'
import type { OperatorHandlers } from './operator-handlers'

/** Where an operation's input holds what /v1 takes as its body, so `body.lang` becomes `changes.lang`. */
const BODY_AT: Partial<Record<IpcOperationName, string>> = { 'agents.update': 'changes' }

/** Logs a failure that is VoiceDesk's fault; the caller only learns that one happened. */
export type InternalErrorLogger = (error: unknown, operation: string) => void

const isOperationName = (name: string): name is IpcOperationName => Object.hasOwn(IPC_OPERATIONS, name)

function joinPath(segments: readonly PropertyKey[]): string {
  return segments.map(String).join('.')
}

/** zod's issues as the contract's details, with paths relative to the input (`agentName`, `changes.lang`). */
function validationDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ path: joinPath([...issue.path, key]), message: `Unknown field "${key}"` }))
    }
    return [{ path: issue.path.length === 0 ? 'input' : joinPath(issue.path), message: issue.message }]
  })
}

/** A ServiceError's paths, written for /v1 (`body.lang`, `query.jobId`), made relative to the operation's input. */
function inputPath(operation: IpcOperationName, path: string): string {
  const [where, ...rest] = path.split('.')
  if (where !== 'body' && where !== 'query' && where !== 'params') return path
  const prefix = where === 'body' ? BODY_AT[operation] : undefined
  const relative = rest.join('.')
  return [prefix, relative].filter(Boolean).join('.') || 'input'
}

function failure(code: IpcError['code'], message: string, details: ErrorDetail[] = []): { ok: false; error: IpcError } {
  return { ok: false, error: { code, message, details } }
}

function summary(details: ErrorDetail[]): string {
  const [first] = details
  if (!first) return 'Invalid input'
  return `Invalid input: ${first.path}: ${first.message}${details.length > 1 ? ` (and ${details.length - 1} more)` : ''}`
}

/**
 * Runs one operation for a transport: validates `rawInput` with the contract's input schema,
 * calls the handler, and answers an IpcResult. Never throws and never rejects: a refused
 * input is VALIDATION_ERROR with field paths, a ServiceError keeps its code, message and
 * details, an unknown operation is NOT_FOUND, a full disk or a busy database is
 * INSUFFICIENT_STORAGE or UNAVAILABLE (as on /v1), and anything else is INTERNAL with a generic
 * message (the error itself goes to `logInternal`, never to the caller).
 */
export async function invokeOperation(
  handlers: OperatorHandlers,
  name: string,
  rawInput: unknown,
  logInternal: InternalErrorLogger = () => {},
): Promise<IpcResult<IpcOperationName>> {
  if (!isOperationName(name)) return failure('NOT_FOUND', `No operation named ${JSON.stringify(name)}`)
  try {
    // No input at all is an empty one: operations without parameters are called with nothing.
    const parsed = IPC_OPERATIONS[name].input.safeParse(rawInput === undefined || rawInput === null ? {} : rawInput)
    if (!parsed.success) {
      const details = validationDetails(parsed.error)
      return failure('VALIDATION_ERROR', summary(details), details)
    }
    const handler = handlers[name] as (input: unknown) => unknown
    const data = await handler(parsed.data)
    return { ok: true, data } as IpcResult<IpcOperationName>
  } catch (error) {
    if (error instanceof ServiceError) {
      const details = error.details.map((detail) => ({ path: inputPath(name, detail.path), message: detail.message }))
      const message = error.code === 'VALIDATION_ERROR' && details.length > 0 ? summary(details) : error.message
      return failure(error.code, message, details)
    }
    const storage = storageServiceError(error)
    if (storage) return failure(storage.code, storage.message)
    try {
      logInternal(error, name)
    } catch {
      // A failing logger must not turn an answer into a throw.
    }
    return failure('INTERNAL', `The operation ${name} failed inside VoiceDesk; the service log has the details`)
  }
}
