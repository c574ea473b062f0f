import { createCipheriv, createDecipheriv, randomBytes, scrypt, type ScryptOptions } from 'node:crypto'

const ALGORITHM = 'aes-256-gcm'
/** Marks a value sealed under an archive's passphrase (never confused with the store's `v1:` values). */
const PREFIX = 'vdp1:'
/** What the check value of a manifest opens to: proves the passphrase before any secret is read. */
const CHECK_PLAINTEXT = 'voicedesk-state passphrase check'

/** How the key was derived from the passphrase, kept in the manifest (no secret in it). */
export interface PassphraseParameters {
  kdf: 'scrypt'
  /** base64 */
  salt: string
  N: number
  r: number
  p: number
  /** CHECK_PLAINTEXT sealed under the key: a wrong passphrase fails here, with a clear error. */
  check: string
}

/** 2^15 × 8 × 128 bytes = 32 MiB of memory per derivation: slow to guess, still well under a second. */
const COST = { N: 2 ** 15, r: 8, p: 1 }

/** The passphrase does not open the archive's secrets (a wrong one, or a damaged check value). */
export class WrongPassphraseError extends Error {
  constructor() {
    super('The passphrase does not open the secrets of this archive: check it and try again')
    this.name = 'WrongPassphraseError'
  }
}

function deriveKey(passphrase: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: 128 * cost.N * cost.r * 2 }
  return new Promise((resolve, reject) =>
    scrypt(passphrase.normalize('NFC'), salt, 32, options, (error, key) => (error ? reject(error) : resolve(key))),
  )
}

/**
 * Secrets sealed under a passphrase (scrypt, then AES-256-GCM with a random IV per value), so
 * an archive's secrets travel to another service, whose own sealing key is different, and
 * stay unreadable to anyone without the passphrase.
 */
export class PassphraseSeal {
  private constructor(
    private readonly key: Buffer,
    readonly parameters: PassphraseParameters,
  ) {}

  /** A new seal (fresh salt) for writing an archive. */
  static async create(passphrase: string): Promise<PassphraseSeal> {
    const salt = randomBytes(16)
    const key = await deriveKey(passphrase, salt, COST)
    const check = encrypt(key, CHECK_PLAINTEXT)
    return new PassphraseSeal(key, { kdf: 'scrypt', salt: salt.toString('base64'), ...COST, check })
  }

  /** The seal an archive was written with; WrongPassphraseError when `passphrase` is not its passphrase. */
  static async open(passphrase: string, parameters: PassphraseParameters): Promise<PassphraseSeal> {
    // Bounds on what a (hostile) manifest may make us compute: at most the cost we write, times four.
    if (!(
      parameters.N >= 2 &&
      parameters.N <= 2 ** 17 &&
      parameters.r >= 1 &&
      parameters.r <= 16 &&
      parameters.p >= 1 &&
      parameters.p <= 4
    )) {
      throw new WrongPassphraseError()
    }
    const key = await deriveKey(passphrase, Buffer.from(parameters.salt, 'base64'), parameters)
    const seal = new PassphraseSeal(key, parameters)
    if (seal.tryOpen(parameters.check) !== CHECK_PLAINTEXT) throw new WrongPassphraseError()
    return seal
  }

  seal(plaintext: string): string {
    return encrypt(this.key, plaintext)
  }

  /** The plaintext of a value this seal made; WrongPassphraseError when it does not open (tampered). */
  open(sealed: string): string {
    const plaintext = this.tryOpen(sealed)
    if (plaintext === undefined) throw new WrongPassphraseError()
    return plaintext
  }

  private tryOpen(sealed: string): string | undefined {
    if (!sealed.startsWith(PREFIX)) return undefined
    const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64')
    if (raw.length < 28) return undefined
    try {
      const decipher = createDecipheriv(ALGORITHM, this.key, raw.subarray(0, 12))
      decipher.setAuthTag(raw.subarray(12, 28))
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
    } catch {
      return undefined
    }
  }
}

function encrypt(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv(ALGORITHM, key, iv)
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
}
