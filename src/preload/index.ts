import { contextBridge, ipcRenderer } from 'electron'

/** Named operations only: the renderer never gets a raw invoke(channel). */
const api = {
  serviceInfo: (): Promise<{ url: string }> => ipcRenderer.invoke('service:info'),
}

contextBridge.exposeInMainWorld('api', api)

export type PreloadApi = typeof api
