import { z } from 'zod'
import type { SecretBox } from '../../store/secret-box'
import type { Store } from '../../store/ports'
import { generateSigningSecret, signingKeyOf } from '../../webhooks/webhook-signature'

/** The `webhooks` setting: the operator's Standard Webhooks signing secret, sealed at rest. */
export const WebhookSettingSchema = z.object({ signingSecretSealed: z.string().optional() })

export interface WebhookSigningSettings {
  /** The secret to sign with, or undefined when webhooks go unsigned (the default). */
  signingSecret(): Promise<string | undefined>
  /** Sets a `whsec_` secret (or makes one when none is given) and answers it. */
  setSigningSecret(secret?: string): Promise<string>
  clearSigningSecret(): Promise<void>
}

export class InvalidSigningSecretError extends Error {}

/** How long the sender may sign with a secret it read: a change made elsewhere (the CLI) shows within this. */
export const SIGNING_SECRET_CACHE_MS = 1_000

/**
 * The sender asks for the secret at every attempt, so it is read (and unsealed) at most once
 * a second; a change through this object shows at once.
 */
export function webhookSigningSettings(store: Store, secrets: SecretBox): WebhookSigningSettings {
  let cached: { readAt: number; secret: string | undefined } | undefined
  return {
    async signingSecret() {
      const now = performance.now()
      if (!cached || now - cached.readAt >= SIGNING_SECRET_CACHE_MS) {
        const sealed = (await store.settings.get('webhooks', WebhookSettingSchema))?.signingSecretSealed
        cached = { readAt: now, secret: sealed === undefined ? undefined : secrets.decrypt(sealed) }
      }
      return cached.secret
    },
    async setSigningSecret(secret = generateSigningSecret()) {
      if (!signingKeyOf(secret))
        throw new InvalidSigningSecretError('A signing secret is whsec_ followed by the base64 of 16 to 64 random bytes')
      await store.settings.set('webhooks', { signingSecretSealed: secrets.encrypt(secret) })
      cached = undefined
      return secret
    },
    async clearSigningSecret() {
      await store.settings.set('webhooks', {})
      cached = undefined
    },
  }
}
