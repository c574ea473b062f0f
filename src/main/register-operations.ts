import type { IpcMain, IpcMainInvokeEvent } from 'electron'
import { IPC_OPERATION_NAMES, ipcChannelOf, type IpcResult } from '../shared/ipc/operations'
import { invokeOperation, type InternalErrorLogger } from '../service/operator/invoke-operation'
import type { OperatorHandlers } from '../service/operator/operator-handlers'

export interface RegisterOperationsOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>
  handlers: OperatorHandlers
  /** Whether an invoke comes from our own window's top frame (see isOwnWindowFrame). */
  isTrustedSender: (event: IpcMainInvokeEvent) => boolean
  logInternal?: InternalErrorLogger
}

const FORBIDDEN: IpcResult<never> = {
  ok: false,
  error: { code: 'FORBIDDEN', message: 'Only the VoiceDesk window may call its operations', details: [] },
}

/**
 * One ipcMain handler per operation, on its own channel, each through invokeOperation: the
 * input is validated with the contract's zod schema here, in main, whatever the renderer
 * sent. Calls from any other frame are refused before anything is parsed. Returns the
 * function that removes the handlers.
 */
export function registerOperations(options: RegisterOperationsOptions): () => void {
  for (const name of IPC_OPERATION_NAMES) {
    options.ipcMain.handle(ipcChannelOf(name), (event, input: unknown) => {
      if (!options.isTrustedSender(event)) return FORBIDDEN
      return invokeOperation(options.handlers, name, input, options.logInternal)
    })
  }
  return () => {
    for (const name of IPC_OPERATION_NAMES) options.ipcMain.removeHandler(ipcChannelOf(name))
  }
}
