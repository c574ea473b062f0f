import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { IpcEvent, VoiceDeskBridge, VoiceDeskOperations } from '../shared/ipc/operations'
import {
  IPC_EVENT_CHANNEL,
  IPC_OPERATION_NAMES,
  IPC_STREAM_CHANNEL,
  ipcChannelOf,
  type IpcOperationName,
} from '../shared/ipc/operation-names'
import { createStreamListeners } from '../shared/ipc/stream-listeners'
import type { IpcStreamClose, IpcStreamHandle, IpcStreamName, IpcStreamServerFrame, OpenIpcStream } from '../shared/ipc/streams'

/**
 * `window.voicedesk`: one named function per operation, each bound to its own channel, a
 * subscription to live events, and openStream. The renderer never gets ipcRenderer, a raw
 * invoke(channel) or a MessagePort, so a compromised page can call the operations and open the
 * contract's streams and nothing else (and main validates every input and frame). Only the names
 * module is imported: a sandboxed preload is one script, without zod.
 */
function operationCalling(name: IpcOperationName) {
  const channel = ipcChannelOf(name)
  return (input: unknown) => ipcRenderer.invoke(channel, input)
}

const operations = Object.freeze(
  Object.fromEntries(IPC_OPERATION_NAMES.map((name) => [name, operationCalling(name)])),
) as VoiceDeskOperations

/**
 * A stream over a MessagePort: main gets `{ name, input }` with the other port, and frames go as
 * structured clones. The page gets four functions; the port stays here. The port's `close` event
 * (Electron's addition to MessagePort) tells when main closed its end.
 */
/** The part of a MessagePort used here (the page's, and Node's in tests, both have it). */
interface StreamPort {
  postMessage(message: unknown): void
  start(): void
  close(): void
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
  addEventListener(type: 'close', listener: () => void): void
}

const openStream: OpenIpcStream = <N extends IpcStreamName>(name: N, input: unknown): IpcStreamHandle<N> => {
  const channel = new MessageChannel()
  const port = channel.port1 as unknown as StreamPort
  const listeners = createStreamListeners<N>()
  let refusal: IpcStreamClose | undefined
  const finish = () => listeners.finish(refusal ?? { kind: 'closed' })
  port.addEventListener('message', (event) => {
    const frame = event.data as IpcStreamServerFrame<N>
    if (frame.type === 'refused' && !listeners.closed) refusal = { kind: 'failed', error: frame.error }
    listeners.deliver(frame)
  })
  port.addEventListener('close', finish)
  port.start()
  ipcRenderer.postMessage(IPC_STREAM_CHANNEL, { name, input }, [channel.port2])
  return Object.freeze({
    send(frame: unknown) {
      if (!listeners.closed) port.postMessage(frame)
    },
    close() {
      port.close()
      finish()
    },
    onFrame: listeners.onFrame,
    onClose: listeners.onClose,
  })
}

const bridge: VoiceDeskBridge = {
  host: 'desktop',
  operations,
  onEvent(listener) {
    // The IpcRendererEvent stays here: it carries the sender, which the page must not get.
    const forward = (_event: IpcRendererEvent, payload: IpcEvent) => listener(payload)
    ipcRenderer.on(IPC_EVENT_CHANNEL, forward)
    return () => {
      ipcRenderer.removeListener(IPC_EVENT_CHANNEL, forward)
    }
  },
  openStream,
}

contextBridge.exposeInMainWorld('voicedesk', bridge)
