import type { IpcInput, IpcOperationName, IpcOutput, IpcResult, VoiceDeskBridge } from '../../../shared/ipc/operations'
import { OperatorError } from './operator-error'

/** Calls one operation and answers its data, or throws an OperatorError with the code and field details. */
export type Call = <N extends IpcOperationName>(name: N, input: IpcInput<N>) => Promise<IpcOutput<N>>

export function createCall(bridge: VoiceDeskBridge, onUnauthorized?: () => void): Call {
  return async <N extends IpcOperationName>(name: N, input: IpcInput<N>): Promise<IpcOutput<N>> => {
    const operation = bridge.operations[name] as unknown as (input: IpcInput<N>) => Promise<IpcResult<N>>
    const result = await operation(input)
    if (result.ok) return result.data
    if (result.error.code === 'UNAUTHORIZED') onUnauthorized?.()
    throw new OperatorError(result.error)
  }
}
