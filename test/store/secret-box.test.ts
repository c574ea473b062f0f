import { existsSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadOrCreateKeyFile, SecretBox, WRAPPED_KEY_FILE } from '../../src/store/secret-box'
import { makeTempDir } from '../helpers/temp-dir'

describe('SecretBox', () => {
  it('round-trips text, with a different ciphertext each time', () => {
    const box = new SecretBox(loadOrCreateKeyFile(join(makeTempDir(), 'secret.key')))
    const first = box.encrypt('token-ünïcode-✓')
    const second = box.encrypt('token-ünïcode-✓')
    expect(first).not.toBe(second)
    expect(first).not.toContain('token')
    expect(box.decrypt(first)).toBe('token-ünïcode-✓')
  })

  it('detects tampering and refuses another key', () => {
    const directory = makeTempDir()
    const box = new SecretBox(loadOrCreateKeyFile(join(directory, 'a.key')))
    const sealed = box.encrypt('secret')
    const flipped = sealed.slice(0, -2) + (sealed.at(-2) === 'A' ? 'B' : 'A') + sealed.at(-1)
    expect(() => box.decrypt(flipped)).toThrow()
    expect(() => new SecretBox(loadOrCreateKeyFile(join(directory, 'b.key'))).decrypt(sealed)).toThrow()
  })

  it("refuses the desktop app's data folder, whose key the system keychain seals", () => {
    const directory = makeTempDir()
    writeFileSync(join(directory, WRAPPED_KEY_FILE), 'wrapped by safeStorage')
    expect(() => loadOrCreateKeyFile(join(directory, 'secret.key'))).toThrow(/belongs to the desktop app/)
    expect(existsSync(join(directory, 'secret.key')), 'no second key was made').toBe(false)
  })

  it('keeps the key file private and stable across loads', () => {
    const file = join(makeTempDir(), 'secret.key')
    const key = loadOrCreateKeyFile(file)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(loadOrCreateKeyFile(file).equals(key)).toBe(true)
  })

  it('refuses a key file that does not hold 32 bytes', () => {
    const file = join(makeTempDir(), 'secret.key')
    writeFileSync(file, Buffer.alloc(8).toString('base64'))
    expect(() => loadOrCreateKeyFile(file)).toThrow(/32-byte/)
  })
})
