import { z } from 'zod'
import { readSttSetting, saveSttSetting, type SttSettingChange } from '../settings/stt-settings'
import { refuseExtraArguments, UsageError, type Values } from './args'
import { say } from './say'
import { openStorageStore, secretsOf, storageOf } from './storage'
import { present } from '../../shared/present'

const STT_ENGINE_EXAMPLE = 'voicedesk stt-engine openai-compatible --base-url http://127.0.0.1:8080/v1'

export async function sttEngine(values: Values, positionals: string[]): Promise<void> {
  const [choice] = positionals
  refuseExtraArguments('stt-engine', positionals, 1, 'one engine: off or openai-compatible')
  if (choice !== undefined && choice !== 'off' && choice !== 'openai-compatible') {
    throw new UsageError(`Unknown engine ${JSON.stringify(choice)}: use off, or ${STT_ENGINE_EXAMPLE}`)
  }
  if (choice !== 'openai-compatible') {
    const stray = (['base-url', 'model', 'api-key'] as const).find((name) => values[name] !== undefined)
    if (stray) throw new UsageError(`--${stray} goes with "stt-engine openai-compatible" only`)
  } else if (!values['base-url']) {
    throw new UsageError(`stt-engine openai-compatible needs --base-url, as in: ${STT_ENGINE_EXAMPLE}`)
  }
  const storage = storageOf(values)
  const store = await openStorageStore(storage)
  try {
    if (choice === undefined) {
      const setting = await readSttSetting(store)
      say(
        setting.engine === 'off'
          ? 'off'
          : `openai-compatible ${setting.baseUrl} model ${setting.model ?? 'whisper-1 (the server default)'}`,
      )
      return
    }
    // The CLI replaces the whole choice: a server chosen without --api-key has no key (null forgets a stored one).
    const change: SttSettingChange =
      choice === 'off'
        ? { engine: 'off' }
        : { engine: choice, baseUrl: values['base-url'] ?? '', model: values.model || undefined, apiKey: values['api-key'] || null }
    try {
      await saveSttSetting(store, secretsOf(storage), change)
    } catch (error) {
      if (!(error instanceof z.ZodError)) throw error
      const issue = present(error.issues[0], 'the first issue of a failed parse')
      const flag = issue.path[0] === 'baseUrl' ? `--base-url ${values['base-url']}` : `--${String(issue.path[0])}`
      throw new UsageError(`${flag}: ${issue.message}; as in: ${STT_ENGINE_EXAMPLE}`)
    }
    say(
      choice === 'off'
        ? 'Speech recognition is off from the next call: calls hear when the caller speaks, not what they say.'
        : `Speech recognition will use ${values.model ? `model ${values.model}` : 'the server default model'} at ${values['base-url']}${values['api-key'] ? ' (with an API key)' : ''} from the next call.`,
    )
  } finally {
    await store.close()
  }
}
