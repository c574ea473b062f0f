import type { SafeStorage } from 'electron'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadOrCreateKeyFile, WRAPPED_KEY_FILE } from '../store/secret-box'
/** The headless service's plain key file, used when safeStorage is unavailable. */
export const PLAIN_KEY_FILE = 'secret.key'

const KEY_BYTES = 32

export interface DesktopSecretKeyOptions {
  safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> & Partial<Pick<SafeStorage, 'getSelectedStorageBackend'>>
  dataDir: string
  warn: (message: string) => void
}

function writeWrapped(options: DesktopSecretKeyOptions, key: Buffer): void {
  const file = join(options.dataDir, WRAPPED_KEY_FILE)
  const wrapped = options.safeStorage.encryptString(key.toString('base64'))
  writeFileSync(`${file}.partial`, wrapped, { mode: 0o600 })
  renameSync(`${file}.partial`, file)
}

/**
 * The 32-byte key that seals secrets at rest (SecretBox), for the desktop app. It is kept
 * wrapped by Electron's safeStorage (Keychain, DPAPI, libsecret) in userData, made on the
 * first start. A plain key file left by an earlier version is wrapped and then removed, so
 * what it sealed stays readable. Without safeStorage (no keyring on Linux), a warning is
 * logged and the plain key file is used, as `voicedesk serve` does. Call after app 'ready'.
 */
export function loadDesktopSecretKey(options: DesktopSecretKeyOptions): Buffer {
  const wrappedFile = join(options.dataDir, WRAPPED_KEY_FILE)
  const plainFile = join(options.dataDir, PLAIN_KEY_FILE)
  if (existsSync(wrappedFile)) {
    if (!options.safeStorage.isEncryptionAvailable()) {
      throw new Error(`${wrappedFile} is sealed by the system keychain, which is not available now; secrets cannot be read`)
    }
    const key = Buffer.from(options.safeStorage.decryptString(readFileSync(wrappedFile)), 'base64')
    if (key.length !== KEY_BYTES) throw new Error(`${wrappedFile} does not hold a ${KEY_BYTES}-byte key`)
    return key
  }
  if (!options.safeStorage.isEncryptionAvailable()) {
    options.warn(`The system keychain (safeStorage) is not available: secrets are sealed with the plain key file ${plainFile}`)
    return loadOrCreateKeyFile(plainFile)
  }
  if (process.platform === 'linux' && options.safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
    options.warn('No keyring was found: safeStorage wraps the secret key with a fixed password (basic_text backend)')
  }
  mkdirSync(options.dataDir, { recursive: true })
  const key = existsSync(plainFile) ? loadOrCreateKeyFile(plainFile) : randomBytes(KEY_BYTES)
  writeWrapped(options, key)
  rmSync(plainFile, { force: true })
  return key
}
