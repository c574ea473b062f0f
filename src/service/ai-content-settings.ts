import { z } from 'zod'
import type { AiContentEngine } from '../engines/ai-content/ai-content-engine'
import { createOfflineAiContentEngine } from '../engines/ai-content/ai-content-engine'
import { createOpenAiCompatibleEngine } from '../engines/ai-content/openai-compatible-engine'
import type { SecretBox } from '../store/secret-box'
import type { Store } from '../store/store'
import { JOB_MODELS } from './ops/jobs'

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

export function createAiContentEngine(store: Store, secrets: SecretBox, override?: AiContentEngine): ChosenAiContentEngine {
  if (override) return { engine: override, model: { model: override.name, systemModelKey: `ai-content-${override.name}`, processingType: 'ASYNC' } }
  const setting = store.settings.get('aiContent', AiContentSettingSchema) ?? { engine: 'offline' }
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
