import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/** Standard Webhooks secrets are `whsec_` and the base64 of the key bytes. */
const SECRET_PREFIX = 'whsec_'

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64')
}

/** The key bytes of a `whsec_` secret, or undefined when it is not one (at least 16 bytes). */
export function signingKeyOf(secret: string): Buffer | undefined {
  if (!secret.startsWith(SECRET_PREFIX)) return undefined
  const encoded = secret.slice(SECRET_PREFIX.length)
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined
  const key = Buffer.from(encoded, 'base64')
  return key.length >= 16 && key.length <= 64 ? key : undefined
}

/** The `webhook-signature` value: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`. */
export function signWebhook(key: Buffer, id: string, timestamp: number, body: string): string {
  return 'v1,' + createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')
}

/** True when one of the space-separated signatures in `header` is ours (what a receiver checks). */
export function verifyWebhookSignature(key: Buffer, id: string, timestamp: number, body: string, header: string): boolean {
  const expected = Buffer.from(signWebhook(key, id, timestamp, body))
  return header.split(' ').some((candidate) => {
    const given = Buffer.from(candidate)
    return given.length === expected.length && timingSafeEqual(given, expected)
  })
}
