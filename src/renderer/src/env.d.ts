import type { VoiceDeskBridge } from '../../shared/ipc/operations'

declare global {
  interface Window {
    /** Set by the Electron preload; absent in a browser, where the UI builds the same over HTTP. */
    voicedesk?: VoiceDeskBridge
  }
}
