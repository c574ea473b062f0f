import { InvalidSigningSecretError, webhookSigningSettings } from '../settings/webhook-settings'
import { refuseExtraArguments, UsageError, type Values } from './args'
import { say } from './say'
import { openStorageStore, secretsOf, storageOf } from './storage'

export async function webhookSecret(values: Values, positionals: string[]): Promise<void> {
  const [action, secret] = positionals
  refuseExtraArguments(
    'webhook-secret',
    positionals,
    action === 'set' ? 2 : 1,
    action === 'set' ? 'one secret' : 'generate, set <whsec_...> or clear',
  )
  const storage = storageOf(values)
  const store = await openStorageStore(storage)
  try {
    const settings = webhookSigningSettings(store, secretsOf(storage))
    if (action === undefined) {
      const current = await settings.signingSecret()
      say(
        current === undefined
          ? 'Webhooks are not signed.'
          : `Webhooks are signed (webhook-signature) with the secret ending ${current.slice(-4)}.`,
      )
    } else if (action === 'generate') {
      say(`Webhooks are now signed with this secret, shown only this once:\n${await settings.setSigningSecret()}`)
    } else if (action === 'set') {
      if (!secret) throw new UsageError('webhook-secret set needs the secret (whsec_...)')
      await settings.setSigningSecret(secret)
      say(`Webhooks are now signed with the secret ending ${secret.slice(-4)}.`)
    } else if (action === 'clear') {
      await settings.clearSigningSecret()
      say('Webhooks are no longer signed.')
    } else {
      throw new UsageError(`Unknown webhook-secret action ${JSON.stringify(action)}: use generate, set <whsec_...> or clear`)
    }
  } catch (error) {
    if (error instanceof InvalidSigningSecretError) throw new UsageError(error.message)
    throw error
  } finally {
    await store.close()
  }
}
