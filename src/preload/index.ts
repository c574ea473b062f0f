import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron'
import type { IpcEvent, VoiceDeskBridge, VoiceDeskOperations } from '../shared/ipc/operations'
import { IPC_EVENT_CHANNEL, IPC_OPERATION_NAMES, ipcChannelOf, type IpcOperationName } from '../shared/ipc/operation-names'

/**
 * `window.voicedesk`: one named function per operation, each bound to its own channel, and a
 * subscription to live events. The renderer never gets ipcRenderer or a raw invoke(channel),
 * so a compromised page can call the operations and nothing else (and main validates every
 * input). Only the names module is imported: a sandboxed preload is one script, without zod.
 */
function operationCalling(name: IpcOperationName) {
  const channel = ipcChannelOf(name)
  return (input: unknown) => ipcRenderer.invoke(channel, input)
}

const operations = Object.freeze(Object.fromEntries(IPC_OPERATION_NAMES.map((name) => [name, operationCalling(name)]))) as VoiceDeskOperations

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
}

contextBridge.exposeInMainWorld('voicedesk', bridge)
