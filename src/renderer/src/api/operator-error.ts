import type { ErrorDetail } from '../../../shared/api/errors'
import type { IpcError } from '../../../shared/ipc/operations'

/** The codes of the contract (a service that cannot be reached is INTERNAL). */
export type OperatorErrorCode = IpcError['code']

/** A refused or failed operation, with what the UI needs to explain it: the code and per-field details. */
export class OperatorError extends Error {
  override readonly name = 'OperatorError'
  readonly code: OperatorErrorCode
  readonly details: readonly ErrorDetail[]

  constructor(error: { code: OperatorErrorCode; message: string; details?: readonly ErrorDetail[] }) {
    super(error.message)
    this.code = error.code
    this.details = error.details ?? []
  }
}

export function isOperatorError(error: unknown): error is OperatorError {
  return error instanceof OperatorError
}

/** A short sentence for a toast, whatever was thrown. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}
