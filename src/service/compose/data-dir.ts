import envPaths from 'env-paths'

/**
 * The per-user data folder of the headless service: ~/.local/share/voicedesk on Linux,
 * ~/Library/Application Support/voicedesk on macOS, %LOCALAPPDATA%\voicedesk\Data on Windows.
 */
export function defaultDataDir(): string {
  return envPaths('voicedesk', { suffix: '' }).data
}
