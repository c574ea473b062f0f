import { z } from 'zod'
import type { SecretBox } from '../../store/secret-box'
import type { Store } from '../../store/ports'

/** A value sealed with the key the database's secrets are sealed with, kept to recognise that key. */
const SETTING_KEY = 'sealingKeyCheck'
const PLAINTEXT = 'voicedesk-sealing-key'

export class WrongSealingKeyError extends Error {}

/**
 * Team mode: every instance must seal and open secrets with the same VOICEDESK_SECRET_KEY. The
 * first start leaves a sealed marker; later starts open it, so an instance given another key
 * stops at once with a clear message instead of failing on every webhook and phone number.
 */
export async function checkSealingKey(store: Store, secrets: SecretBox): Promise<void> {
  const sealed = await store.settings.get(SETTING_KEY, z.string())
  if (sealed === undefined) {
    await store.settings.set(SETTING_KEY, secrets.encrypt(PLAINTEXT))
    return
  }
  let opened: string | undefined
  try {
    opened = secrets.decrypt(sealed)
  } catch {
    opened = undefined
  }
  if (opened !== PLAINTEXT) {
    throw new WrongSealingKeyError(
      'VOICEDESK_SECRET_KEY is not the key this database was set up with: give every instance the same key (the secrets stored so far cannot be opened with another)',
    )
  }
}
