import { z } from 'zod'
import type { AiContentEngine } from '../../engines/ai-content/ai-content-engine'
import { createOfflineAiContentEngine } from '../../engines/ai-content/ai-content-engine'
import { createOpenAiCompatibleEngine } from '../../engines/ai-content/openai-compatible-engine'
import type { SecretBox } from '../../store/secret-box'
import type { Store } from '../../store/ports'
import { JOB_MODELS } from '../ops/jobs'

/**
 * The `aiContent` setting: the offline engine (the default), or an OpenAI-compatible chat
 * endpoint such as a local Ollama or llama.cpp server. Its API key is stored sealed.
 */
export const AiContentSettingSchema = z.discriminatedUnion('engine', [
  z.object({ engine: z.literal('offline') }),
  z.object({
    engine: z.literal('openai-compatible'),
    baseUrl: z.url({ protocol: /^https?$/ }),
    model: z.string().min(1),
    apiKeySealed: z.string().optional(),
    timeoutMs: z.number().int().min(1_000).max(600_000).optional(),
  }),
])
export type AiContentSetting = z.infer<typeof AiContentSettingSchema>

export interface ChosenAiContentEngine {
  engine: AiContentEngine
  /** What AI-content jobs show as `model`, `systemModelKey` and `processingType`. */
  model: { model: string; systemModelKey: string; processingType: string }
}

export async function createAiContentEngine(store: Store, secrets: SecretBox, override?: AiContentEngine): Promise<ChosenAiContentEngine> {
  if (override)
    return { engine: override, model: { model: override.name, systemModelKey: `ai-content-${override.name}`, processingType: 'ASYNC' } }
  const setting = (await store.settings.get('aiContent', AiContentSettingSchema)) ?? { engine: 'offline' }
  if (setting.engine === 'offline') return { engine: createOfflineAiContentEngine(), model: JOB_MODELS.AI_CONTENT_OFFLINE }
  return {
    engine: createOpenAiCompatibleEngine({
      baseUrl: setting.baseUrl,
      model: setting.model,
      apiKey: setting.apiKeySealed ? secrets.decrypt(setting.apiKeySealed) : undefined,
      timeoutMs: setting.timeoutMs,
    }),
    model: { model: setting.model, systemModelKey: 'ai-content-openai-compatible', processingType: 'ASYNC' },
  }
}

/** The stored setting (offline when none was chosen). */
export async function readAiContentSetting(store: Store): Promise<AiContentSetting> {
  return (await store.settings.get('aiContent', AiContentSettingSchema)) ?? { engine: 'offline' }
}

/** What the operator may see of the setting: everything but the API key, of which only its presence shows. */
export function aiContentSettingView(setting: AiContentSetting) {
  if (setting.engine === 'offline') return { engine: 'offline' as const }
  return {
    engine: 'openai-compatible' as const,
    baseUrl: setting.baseUrl,
    model: setting.model,
    hasApiKey: setting.apiKeySealed !== undefined,
    ...(setting.timeoutMs === undefined ? {} : { timeoutMs: setting.timeoutMs }),
  }
}

export type AiContentSettingChange =
  { engine: 'offline' } | { engine: 'openai-compatible'; baseUrl: string; model: string; apiKey?: string; timeoutMs?: number }

/**
 * Chooses the engine. The API key is write-only: given, it is sealed and replaces the old
 * one; left out, the key already stored for an OpenAI-compatible engine is kept (so a form
 * can change the model without asking for the key again). Choosing offline forgets it.
 */
export async function saveAiContentSetting(store: Store, secrets: SecretBox, change: AiContentSettingChange): Promise<AiContentSetting> {
  let setting: AiContentSetting
  if (change.engine === 'offline') {
    setting = { engine: 'offline' }
  } else {
    const previous = await readAiContentSetting(store)
    const apiKeySealed =
      change.apiKey !== undefined
        ? secrets.encrypt(change.apiKey)
        : previous.engine === 'openai-compatible'
          ? previous.apiKeySealed
          : undefined
    setting = AiContentSettingSchema.parse({
      engine: 'openai-compatible',
      baseUrl: change.baseUrl,
      model: change.model,
      ...(apiKeySealed === undefined ? {} : { apiKeySealed }),
      ...(change.timeoutMs === undefined ? {} : { timeoutMs: change.timeoutMs }),
    })
  }
  await store.settings.set('aiContent', setting)
  return setting
}
