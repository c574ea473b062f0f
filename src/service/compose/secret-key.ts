import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { loadOrCreateKeyFile, WRAPPED_KEY_FILE } from '../../store/secret-box'
import { SECRET_KEY_FILE } from './data-folder'

const KEY_BYTES = 32

/**
 * The system keychain that can wrap the secret key: the shape of Electron's safeStorage, named
 * here so that the service needs no Electron (the desktop shell passes safeStorage itself).
 */
export interface SecretKeychain {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  /** Linux only: 'basic_text' means no keyring was found and a fixed password wraps the key. */
  getSelectedStorageBackend?(): string
}

export interface SecretKeyOptions {
  dataDir: string
  /** Keep the key wrapped by this keychain (the desktop app); without it, a plain key file (`voicedesk serve`). */
  keychain?: SecretKeychain
  warn: (message: string) => void
}

function writeWrapped(keychain: SecretKeychain, dataDir: string, key: Buffer): void {
  const file = join(dataDir, WRAPPED_KEY_FILE)
  const wrapped = keychain.encryptString(key.toString('base64'))
  writeFileSync(`${file}.partial`, wrapped, { mode: 0o600 })
  renameSync(`${file}.partial`, file)
}

/**
 * The 32-byte key that seals secrets at rest (SecretBox), made on the first start. Without a
 * keychain: the plain key file of the data folder. With one (the desktop app): kept wrapped by
 * it (Keychain, DPAPI, libsecret); a plain key file left by an earlier version is wrapped and
 * then removed, so what it sealed stays readable. When the keychain is unavailable (no keyring
 * on Linux), a warning is logged and the plain key file is used, as `voicedesk serve` does.
 */
export function loadSecretKey({ dataDir, keychain, warn }: SecretKeyOptions): Buffer {
  const wrappedFile = join(dataDir, WRAPPED_KEY_FILE)
  const plainFile = join(dataDir, SECRET_KEY_FILE)
  if (!keychain) return loadOrCreateKeyFile(plainFile)
  if (existsSync(wrappedFile)) {
    if (!keychain.isEncryptionAvailable()) {
      throw new Error(`${wrappedFile} is sealed by the system keychain, which is not available now; secrets cannot be read`)
    }
    const key = Buffer.from(keychain.decryptString(readFileSync(wrappedFile)), 'base64')
    if (key.length !== KEY_BYTES) throw new Error(`${wrappedFile} does not hold a ${KEY_BYTES}-byte key`)
    return key
  }
  if (!keychain.isEncryptionAvailable()) {
    warn(`The system keychain (safeStorage) is not available: secrets are sealed with the plain key file ${plainFile}`)
    return loadOrCreateKeyFile(plainFile)
  }
  if (process.platform === 'linux' && keychain.getSelectedStorageBackend?.() === 'basic_text') {
    warn('No keyring was found: safeStorage wraps the secret key with a fixed password (basic_text backend)')
  }
  mkdirSync(dataDir, { recursive: true })
  const key = existsSync(plainFile) ? loadOrCreateKeyFile(plainFile) : randomBytes(KEY_BYTES)
  writeWrapped(keychain, dataDir, key)
  rmSync(plainFile, { force: true })
  return key
}
