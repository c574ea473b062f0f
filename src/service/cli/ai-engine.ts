import { AiContentSettingSchema } from '../settings/ai-content-settings'
import { refuseExtraArguments, UsageError, type Values } from './args'
import { say } from './say'
import { openStorageStore, secretsOf, storageOf } from './storage'
import { present } from '../../shared/present'

const AI_ENGINE_EXAMPLE = 'voicedesk ai-engine openai-compatible --base-url http://127.0.0.1:11434/v1 --model llama3.2'

export async function aiEngine(values: Values, positionals: string[]): Promise<void> {
  const [choice] = positionals
  refuseExtraArguments('ai-engine', positionals, 1, 'one engine: offline or openai-compatible')
  if (choice !== undefined && choice !== 'offline' && choice !== 'openai-compatible') {
    throw new UsageError(`Unknown engine ${JSON.stringify(choice)}: use offline, or ${AI_ENGINE_EXAMPLE}`)
  }
  if (choice !== 'openai-compatible') {
    const stray = (['base-url', 'model', 'api-key'] as const).find((name) => values[name] !== undefined)
    if (stray) throw new UsageError(`--${stray} goes with "ai-engine openai-compatible" only`)
  } else {
    const missing = (['base-url', 'model'] as const).filter((name) => !values[name])
    if (missing.length > 0)
      throw new UsageError(
        `ai-engine openai-compatible needs ${missing.map((name) => `--${name}`).join(' and ')}, as in: ${AI_ENGINE_EXAMPLE}`,
      )
  }
  const storage = storageOf(values)
  const store = await openStorageStore(storage)
  try {
    if (choice === undefined) {
      const setting = (await store.settings.get('aiContent', AiContentSettingSchema)) ?? { engine: 'offline' }
      say(setting.engine === 'offline' ? 'offline' : `openai-compatible ${setting.baseUrl} model ${setting.model}`)
      return
    }
    const secrets = secretsOf(storage)
    const setting =
      choice === 'offline'
        ? { engine: 'offline' }
        : {
            engine: choice,
            baseUrl: values['base-url'],
            model: values.model,
            apiKeySealed: values['api-key'] ? secrets.encrypt(values['api-key']) : undefined,
          }
    const parsed = AiContentSettingSchema.safeParse(setting)
    if (!parsed.success) {
      const issue = present(parsed.error.issues[0], 'the first issue of a failed parse')
      const flag = issue.path[0] === 'baseUrl' ? `--base-url ${values['base-url']}` : `--${String(issue.path[0])}`
      throw new UsageError(`${flag}: ${issue.message}; as in: ${AI_ENGINE_EXAMPLE}`)
    }
    await store.settings.set('aiContent', parsed.data)
    say(
      `AI content will use ${choice === 'offline' ? 'the offline engine' : `${values.model} at ${values['base-url']}`} from the next start.`,
    )
  } finally {
    await store.close()
  }
}
