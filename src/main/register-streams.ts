import type { IpcMain, IpcMainEvent, MessagePortMain } from 'electron'
import { IPC_STREAM_CHANNEL } from '../shared/ipc/operation-names'
import type { InternalErrorLogger } from '../service/operator/invoke-operation'
import { openOperatorStream, refuseStream, type OperatorStreamHandlers, type StreamCarrier } from '../service/operator/operator-streams'

export interface RegisterStreamsOptions {
  ipcMain: Pick<IpcMain, 'on' | 'removeListener'>
  streams: OperatorStreamHandlers
  /** Whether a message comes from our own window's top frame (see isOwnWindowFrame). */
  isTrustedSender: (event: Pick<IpcMainEvent, 'sender' | 'senderFrame'>) => boolean
  logInternal?: InternalErrorLogger
}

/**
 * Electron's carrier of the operator contract's streams. The preload posts `{ name, input }` on
 * IPC_STREAM_CHANNEL with one MessagePort; main bridges that port to the service's stream entry
 * point (openOperatorStream), which validates the input and every frame, whatever the page sent.
 * A message from any other frame gets a `refused` FORBIDDEN on its port, and nothing is parsed.
 * Returns the function that removes the listener.
 */
export function registerStreams(options: RegisterStreamsOptions): () => void {
  const listener = (event: IpcMainEvent, message: unknown) => {
    const port: MessagePortMain | undefined = event.ports[0]
    if (!port) return // nothing to answer on: not our preload
    const carrier: StreamCarrier = {
      send: (frame) => port.postMessage(frame),
      close: () => port.close(),
    }
    if (!options.isTrustedSender(event)) {
      return refuseStream(carrier, { code: 'FORBIDDEN', message: 'Only the VoiceDesk window may open its streams', details: [] })
    }
    const { name, input } = (typeof message === 'object' && message !== null ? message : {}) as { name?: unknown; input?: unknown }
    if (typeof name !== 'string') {
      return refuseStream(carrier, {
        code: 'VALIDATION_ERROR',
        message: 'A stream is opened with { name, input }',
        details: [{ path: 'name', message: 'Expected a stream name' }],
      })
    }
    const connection = openOperatorStream(options.streams, name, input, carrier, options.logInternal)
    port.on('message', (received) => connection.receive(received.data))
    // The page closed its port, or its window went away.
    port.on('close', () => connection.closed())
    port.start()
  }
  options.ipcMain.on(IPC_STREAM_CHANNEL, listener)
  return () => {
    options.ipcMain.removeListener(IPC_STREAM_CHANNEL, listener)
  }
}
