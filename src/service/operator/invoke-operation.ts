import type { ErrorDetail } from '../../shared/api/errors'
import { IPC_OPERATIONS, type IpcError, type IpcOperationName, type IpcResult } from '../../shared/ipc/operations'
import { ServiceError, withDetailPaths } from '../ops/service-error'
import { storageServiceError } from '../ops/storage-service-error'
import { validationDetails, validationSummary } from '../ops/validation-details'
import type { OperatorHandlers } from './operator-handlers'

/** Logs a failure that is VoiceDesk's fault; the caller only learns that one happened. */
export type InternalErrorLogger = (error: unknown, operation: string) => void

const isOperationName = (name: string): name is IpcOperationName => Object.hasOwn(IPC_OPERATIONS, name)

function failure(code: IpcError['code'], message: string, details: ErrorDetail[] = []): { ok: false; error: IpcError } {
  return { ok: false, error: { code, message, details } }
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
      const details = validationDetails(parsed.error.issues)
      return failure('VALIDATION_ERROR', validationSummary('Invalid input', details), details)
    }
    const handler = handlers[name] as (input: unknown) => unknown
    const data = await handler(parsed.data)
    return { ok: true, data } as IpcResult<IpcOperationName>
  } catch (error) {
    return {
      ok: false,
      error: ipcErrorOf(error, `The operation ${name} failed inside VoiceDesk; the service log has the details`, (caught) =>
        logInternal(caught, name),
      ),
    }
  }
}

/**
 * What a failed use case answers the operator UI (an operation's result, a stream's `refused`):
 * a ServiceError keeps its code, message and details, a full disk or a busy database is
 * INSUFFICIENT_STORAGE or UNAVAILABLE, anything else is INTERNAL with `internalMessage` (the
 * error itself goes to `logInternal`, never to the caller).
 */
export function ipcErrorOf(error: unknown, internalMessage: string, logInternal: (error: unknown) => void): IpcError {
  if (error instanceof ServiceError) {
    // Its paths are relative to the use case's input, which is the operation's (or a field of it: see underField).
    const { code, message, details } = withDetailPaths(error, (path) => path, 'Invalid input')
    return { code, message, details }
  }
  const storage = storageServiceError(error)
  if (storage) return { code: storage.code, message: storage.message, details: [] }
  try {
    logInternal(error)
  } catch {
    // A failing logger must not turn an answer into a throw.
  }
  return { code: 'INTERNAL', message: internalMessage, details: [] }
}
