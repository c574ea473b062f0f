import type { VoiceDeskBridge } from '../../../shared/ipc/operations'
import { createBrowserBridge } from './browser-bridge'
import { takeUiToken } from './ui-token'

export type BridgeResolution = { kind: 'ready'; bridge: VoiceDeskBridge } | { kind: 'no-token' }

/** Electron's preload bridge when there is one; otherwise the HTTP bridge with the token from the address. */
export function resolveBridge(): BridgeResolution {
  if (window.voicedesk) return { kind: 'ready', bridge: window.voicedesk }
  const token = takeUiToken({ location: window.location, history: window.history, storage: window.sessionStorage })
  if (!token) return { kind: 'no-token' }
  return { kind: 'ready', bridge: createBrowserBridge({ token }) }
}
