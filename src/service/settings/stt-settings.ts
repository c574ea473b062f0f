import { z } from 'zod'
import { createOpenAiCompatibleSttEngine } from '../../engines/stt/openai-compatible-stt-engine'
import type { SttEngine } from '../../engines/stt/stt-engine'
import type { SecretBox } from '../../store/secret-box'
import type { Store } from '../../store/ports'

/**
 * The `speechRecognition` setting: off (the default: no weights ship with VoiceDesk), or an
 * OpenAI-compatible transcription server such as whisper.cpp's, speaches or LocalAI. Its API
 * key is stored sealed.
 */
export const SttSettingSchema = z.discriminatedUnion('engine', [
  z.object({ engine: z.literal('off') }),
  z.object({
    engine: z.literal('openai-compatible'),
    baseUrl: z.url({ protocol: /^https?$/ }),
    model: z.string().min(1).optional(),
    apiKeySealed: z.string().optional(),
    timeoutMs: z.number().int().min(1_000).max(600_000).optional(),
  }),
])
export type SttSetting = z.infer<typeof SttSettingSchema>

export const STT_SETTING_KEY = 'speechRecognition'

/** The stored setting (off when none was chosen). */
export async function readSttSetting(store: Store): Promise<SttSetting> {
  return (await store.settings.get(STT_SETTING_KEY, SttSettingSchema)) ?? { engine: 'off' }
}

/** The engine the setting chooses, or undefined when recognition is off (callers then say so). */
export async function createSttEngine(store: Store, secrets: SecretBox): Promise<SttEngine | undefined> {
  const setting = await readSttSetting(store)
  if (setting.engine === 'off') return undefined
  return createOpenAiCompatibleSttEngine({
    baseUrl: setting.baseUrl,
    model: setting.model,
    apiKey: setting.apiKeySealed ? secrets.decrypt(setting.apiKeySealed) : undefined,
    timeoutMs: setting.timeoutMs,
  })
}

/** What the operator may see of the setting: everything but the API key, of which only its presence shows. */
export function sttSettingView(setting: SttSetting) {
  if (setting.engine === 'off') return { engine: 'off' as const }
  return {
    engine: 'openai-compatible' as const,
    baseUrl: setting.baseUrl,
    ...(setting.model === undefined ? {} : { model: setting.model }),
    hasApiKey: setting.apiKeySealed !== undefined,
    ...(setting.timeoutMs === undefined ? {} : { timeoutMs: setting.timeoutMs }),
  }
}

/**
 * A new choice. `apiKey` is write-only: given, it is sealed and replaces the stored one; left
 * out, the key already stored for an OpenAI-compatible server is kept (as the AI engine's is, so
 * a form can change the model without asking for the key again); null forgets it.
 */
export type SttSettingChange =
  { engine: 'off' } | { engine: 'openai-compatible'; baseUrl: string; model?: string; apiKey?: string | null; timeoutMs?: number }

/**
 * Chooses speech recognition (the operator UI's settings.setSttEngine and `voicedesk stt-engine`
 * both save through here). Throws the schema's ZodError for a setting it cannot store; turning
 * recognition off forgets the key. Calls read the setting when they start: the next one uses it.
 */
export async function saveSttSetting(store: Store, secrets: SecretBox, change: SttSettingChange): Promise<SttSetting> {
  let setting: SttSetting
  if (change.engine === 'off') {
    setting = { engine: 'off' }
  } else {
    const previous = await readSttSetting(store)
    const apiKeySealed =
      change.apiKey === null
        ? undefined
        : change.apiKey !== undefined
          ? secrets.encrypt(change.apiKey)
          : previous.engine === 'openai-compatible'
            ? previous.apiKeySealed
            : undefined
    setting = SttSettingSchema.parse({
      engine: 'openai-compatible',
      baseUrl: change.baseUrl,
      ...(change.model === undefined ? {} : { model: change.model }),
      ...(apiKeySealed === undefined ? {} : { apiKeySealed }),
      ...(change.timeoutMs === undefined ? {} : { timeoutMs: change.timeoutMs }),
    })
  }
  await store.settings.set(STT_SETTING_KEY, setting)
  return setting
}
