import { z } from 'zod'
import { CorsOriginsSchema } from '../../shared/api/cors'
import type { SecretBox } from '../../store/secret-box'
import type { SettingsRepository } from '../../store/ports'
import { AiContentSettingSchema } from '../settings/ai-content-settings'
import { STT_SETTING_KEY, SttSettingSchema } from '../settings/stt-settings'
import { WebhookSettingSchema } from '../settings/webhook-settings'
import type { PassphraseSeal } from './passphrase-seal'
import { present } from '../../shared/present'

/**
 * The settings an archive carries: those a user sets (engines, CORS, webhook signing), by key,
 * with the schema each must pass on import. Not carried: what belongs to one data folder only
 * (the app's own key, the first key waiting to be shown, the sealing-key check).
 * A field whose name ends in `Sealed` holds a secret sealed with the store's key.
 */
export const PORTABLE_SETTINGS: Readonly<Record<string, z.ZodType>> = {
  aiContent: AiContentSettingSchema,
  corsOrigins: CorsOriginsSchema.nullable(),
  [STT_SETTING_KEY]: SttSettingSchema,
  webhooks: WebhookSettingSchema,
}

/** settings.json: each setting's value; `secretsRemoved` names the fields left out (an archive without a passphrase). */
export const SettingsFileSchema = z.object({
  settings: z.record(z.string(), z.unknown()),
  secretsRemoved: z.array(z.string()),
})
export type SettingsFile = z.infer<typeof SettingsFileSchema>

const isSecretField = (name: string) => name.endsWith('Sealed')

/** The portable settings as settings.json: secrets removed, or sealed under `seal` (the passphrase). */
export async function exportSettings(
  settings: SettingsRepository,
  secrets: SecretBox,
  seal: PassphraseSeal | undefined,
): Promise<SettingsFile> {
  const file: SettingsFile = { settings: {}, secretsRemoved: [] }
  for (const [key, schema] of Object.entries(PORTABLE_SETTINGS)) {
    const value = await settings.get(key, schema)
    if (value === undefined) continue
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      file.settings[key] = value
      continue
    }
    const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) }
    for (const [field, fieldValue] of Object.entries(copy)) {
      if (!isSecretField(field) || typeof fieldValue !== 'string') continue
      if (seal) copy[field] = seal.seal(secrets.decrypt(fieldValue))
      else {
        delete copy[field]
        file.secretsRemoved.push(`${key}.${field}`)
      }
    }
    file.settings[key] = copy
  }
  return file
}

/** What an import did with the archive's settings. */
export interface SettingsOutcome {
  applied: string[]
  /** Left as they were: the archive lacks their secrets (written without a passphrase), or knows no such setting. */
  skipped: string[]
}

/**
 * The archive's settings, ready to store: each checked against its schema, secrets opened with
 * `seal` and sealed again with this store's key. A setting whose secrets the archive left out
 * is skipped whole (storing it without its secret would silently lose the one this store has).
 * Throws ArchiveError-worthy messages through `refuse` for a setting that fails its schema.
 */
export function importableSettings(
  file: SettingsFile,
  secrets: SecretBox,
  seal: PassphraseSeal | undefined,
  refuse: (message: string) => Error,
): { values: Map<string, unknown>; outcome: SettingsOutcome } {
  const values = new Map<string, unknown>()
  const outcome: SettingsOutcome = { applied: [], skipped: [] }
  const incomplete = new Set(file.secretsRemoved.map((path) => path.split('.')[0] ?? path))
  for (const [key, raw] of Object.entries(file.settings)) {
    const schema = PORTABLE_SETTINGS[key]
    if (!schema || incomplete.has(key)) {
      outcome.skipped.push(key)
      continue
    }
    let value = raw
    if (raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
      const copy: Record<string, unknown> = { ...(raw as Record<string, unknown>) }
      for (const [field, fieldValue] of Object.entries(copy)) {
        if (!isSecretField(field)) continue
        if (typeof fieldValue !== 'string' || !seal) throw refuse(`settings.json: ${key}.${field} is not a sealed secret`)
        copy[field] = secrets.encrypt(seal.open(fieldValue))
      }
      value = copy
    }
    const parsed = schema.safeParse(value)
    if (!parsed.success)
      throw refuse(
        `settings.json: ${key} is not a valid setting (${present(parsed.error.issues[0], 'the first issue of a failed parse').message})`,
      )
    values.set(key, parsed.data)
    outcome.applied.push(key)
  }
  return { values, outcome }
}
