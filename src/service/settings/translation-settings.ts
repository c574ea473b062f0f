import { createOpenAiCompatibleTranslationEngine, type TranslationEngine } from '../../engines/ai-content/translation-engine'
import type { Store } from '../../store/ports'
import type { SecretBox } from '../../store/secret-box'
import { readAiContentSetting } from './ai-content-settings'

/*
 * Translation goes through the language model of the `aiContent` setting when it is
 * `openai-compatible` (`voicedesk ai-engine openai-compatible ...`, or the app's Settings).
 * The offline AI-content engine cannot translate, so `offline` means no engine for translation:
 * such jobs end FAILED with LLM_ENGINE_NOT_CONFIGURED. The setting is read when a job is made
 * (its `model`) and again when it runs, so a choice made meanwhile counts at once.
 */

/** What a translation job shows while no language model is configured. */
export const TRANSLATION_NOT_CONFIGURED_MODEL = {
  model: 'not-configured',
  systemModelKey: 'translation-not-configured',
  processingType: 'ASYNC',
} as const

export async function translationModelOf(store: Store): Promise<{ model: string; systemModelKey: string; processingType: string }> {
  const setting = await readAiContentSetting(store)
  if (setting.engine === 'offline') return TRANSLATION_NOT_CONFIGURED_MODEL
  return { model: setting.model, systemModelKey: 'translation-openai-compatible', processingType: 'ASYNC' }
}

/** The engine the setting chooses now; undefined when none is configured. */
export async function createTranslationEngine(store: Store, secrets: SecretBox): Promise<TranslationEngine | undefined> {
  const setting = await readAiContentSetting(store)
  if (setting.engine === 'offline') return undefined
  return createOpenAiCompatibleTranslationEngine({
    baseUrl: setting.baseUrl,
    model: setting.model,
    apiKey: setting.apiKeySealed ? secrets.decrypt(setting.apiKeySealed) : undefined,
    timeoutMs: setting.timeoutMs,
  })
}
