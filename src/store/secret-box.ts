import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

const ALGORITHM = 'aes-256-gcm'
const PREFIX = 'v1:'

/**
 * Encrypts secrets (provider tokens, webhook secrets) before they reach SQLite, so a
 * copied database file alone reveals nothing. AES-256-GCM with a random IV per value.
 */
export class SecretBox {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key')
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv(ALGORITHM, this.key, iv)
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
    return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
  }

  decrypt(sealed: string): string {
    if (!sealed.startsWith(PREFIX)) throw new Error('Not a sealed secret')
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64')
    const decipher = createDecipheriv(ALGORITHM, this.key, raw.subarray(0, 12))
    decipher.setAuthTag(raw.subarray(12, 28))
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
  }
}

/** The desktop app's key file, wrapped by the system keychain (Electron safeStorage), in its data folder. */
export const WRAPPED_KEY_FILE = 'secret.key.safe'

/**
 * The headless key: 32 random bytes in a file beside the database, readable by the owner
 * only. The desktop app wraps the same key with the OS keychain instead.
 */
export function loadOrCreateKeyFile(file: string): Buffer {
  if (existsSync(join(dirname(file), WRAPPED_KEY_FILE))) {
    // A new plain key here would seal secrets the desktop app could never read, and could not read its own.
    throw new Error(
      `${dirname(file)} belongs to the desktop app: its secret key is sealed by the system keychain. Use the desktop app for it, or another --data-dir.`,
    )
  }
  if (existsSync(file)) {
    const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64')
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`)
    return key
  }
  mkdirSync(dirname(file), { recursive: true })
  const key = randomBytes(32)
  writeFileSync(file, key.toString('base64') + '\n', { mode: 0o600, flag: 'wx' })
  chmodSync(file, 0o600)
  return key
}
