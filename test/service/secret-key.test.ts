/**
 * The secret key: a plain key file, or (the desktop's policy, a runtime option) kept wrapped by safeStorage. safeStorage (the OS keychain) is the
 * one stand-in here: a reversible transform that says whether it is available.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { SECRET_KEY_FILE as PLAIN_KEY_FILE } from '../../src/service/compose/data-folder'
import { createRuntime } from '../../src/service/runtime'
import { loadSecretKey } from '../../src/service/compose/secret-key'
import { WRAPPED_KEY_FILE } from '../../src/store/secret-box'
import { makeTempDir } from '../helpers/temp-dir'

function keychain(available = true) {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (text: string) => Buffer.from(`sealed:${Buffer.from(text).toString('hex')}`),
    decryptString: (sealed: Buffer) => Buffer.from(sealed.toString().replace(/^sealed:/, ''), 'hex').toString(),
  }
}

describe('the desktop secret key', () => {
  it('is made on the first start, kept only wrapped, and the same on the next start', () => {
    const dataDir = makeTempDir()
    const warn = vi.fn()
    const key = loadSecretKey({ keychain: keychain(), dataDir, warn })
    expect(key).toHaveLength(32)
    expect(readFileSync(join(dataDir, WRAPPED_KEY_FILE), 'utf8')).not.toContain(key.toString('base64'))
    expect(existsSync(join(dataDir, PLAIN_KEY_FILE))).toBe(false)
    expect(loadSecretKey({ keychain: keychain(), dataDir, warn })).toEqual(key)
    expect(warn).not.toHaveBeenCalled()
  })

  it('wraps the plain key file an earlier version left, then removes it, so old secrets stay readable', () => {
    const dataDir = makeTempDir()
    const plain = Buffer.alloc(32, 7)
    writeFileSync(join(dataDir, PLAIN_KEY_FILE), plain.toString('base64') + '\n')
    expect(loadSecretKey({ keychain: keychain(), dataDir, warn: () => {} })).toEqual(plain)
    expect(existsSync(join(dataDir, PLAIN_KEY_FILE))).toBe(false)
    expect(loadSecretKey({ keychain: keychain(), dataDir, warn: () => {} })).toEqual(plain)
  })

  it('falls back to the plain key file with a warning when safeStorage is unavailable', () => {
    const dataDir = makeTempDir()
    const warn = vi.fn()
    const key = loadSecretKey({ keychain: keychain(false), dataDir, warn })
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('not available'))
    expect(Buffer.from(readFileSync(join(dataDir, PLAIN_KEY_FILE), 'utf8').trim(), 'base64')).toEqual(key)
  })

  it('refuses to start when the key is wrapped but the keychain is gone', () => {
    const dataDir = makeTempDir()
    loadSecretKey({ keychain: keychain(), dataDir, warn: () => {} })
    expect(() => loadSecretKey({ keychain: keychain(false), dataDir, warn: () => {} })).toThrow(/keychain/)
  })

  it('is a plain key file without a keychain, as `voicedesk serve` keeps it', () => {
    const dataDir = makeTempDir()
    const key = loadSecretKey({ dataDir, warn: () => {} })
    expect(Buffer.from(readFileSync(join(dataDir, PLAIN_KEY_FILE), 'utf8').trim(), 'base64')).toEqual(key)
    expect(existsSync(join(dataDir, WRAPPED_KEY_FILE))).toBe(false)
  })

  it('is the runtime option the desktop passes: createRuntime keeps the key wrapped, and reads it back on the next start', async () => {
    const dataDir = makeTempDir()
    const first = await createRuntime({ dataDir, keychain: keychain(), port: 0 })
    await first.stop()
    expect(existsSync(join(dataDir, WRAPPED_KEY_FILE))).toBe(true)
    expect(existsSync(join(dataDir, PLAIN_KEY_FILE))).toBe(false)
    // The wrapped key is the one that sealed: without the keychain the folder is refused, not given a new key.
    await expect(createRuntime({ dataDir, port: 0 })).rejects.toThrow(/belongs to the desktop app/)
    const second = await createRuntime({ dataDir, keychain: keychain(), port: 0 })
    await second.stop()
  })
})
