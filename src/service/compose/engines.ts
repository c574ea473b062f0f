import { createEspeakTtsEngine, type TtsEngine } from '../../engines/tts/tts-engine'
import { createAiContentEngine, type ChosenAiContentEngine } from '../settings/ai-content-settings'
import { CallEngines } from './call-engines'
import type { RuntimeConfig } from './config'
import type { RuntimeStorage } from './storage'

/** The engines the runtime shares between jobs, calls and the operator UI. */
export interface RuntimeEngines {
  /** The speech engine: started on the first TTS job or voice sample (WASM takes ~0.2 s), then kept warm. */
  speech: () => Promise<TtsEngine>
  /** The AI-content engine chosen now, and the model it names in its jobs. */
  aiContent: () => ChosenAiContentEngine
  /** Reads the AI-content choice again (settings.setAiEngine): the next job uses it. */
  reloadAiContent: () => Promise<void>
  /** The engines of live calls, as the settings choose them when a call starts. */
  calls: CallEngines
  /** Closes the speech engine it started (not one it was given); asked for afterwards, it refuses rather than starting again. */
  close: () => Promise<void>
}

export async function composeEngines(
  config: RuntimeConfig,
  { store, secrets }: Pick<RuntimeStorage, 'store' | 'secrets'>,
): Promise<RuntimeEngines> {
  let ttsEngine: Promise<TtsEngine> | undefined
  let closing = false
  const given = config.speechEngine
  const started = () =>
    (ttsEngine ??= closing
      ? Promise.reject(new Error('The runtime is stopping'))
      : createEspeakTtsEngine().catch((error: unknown) => {
          ttsEngine = undefined // a failed start is tried again by the next job
          throw error
        }))
  // The embedder's engine (config.speechEngine) is theirs to close: once this runtime stops, it asks nothing more of it.
  const speech = given ? () => (closing ? Promise.reject(new Error('The runtime is stopping')) : Promise.resolve(given)) : started
  let aiContent = await createAiContentEngine(store, secrets, config.aiContentEngine)
  return {
    speech,
    aiContent: () => aiContent,
    reloadAiContent: async () => {
      aiContent = await createAiContentEngine(store, secrets, config.aiContentEngine)
    },
    calls: new CallEngines({ store, secrets, speech, dialogue: config.dialogueEngine, stt: config.sttEngine, log: config.log }),
    close: async () => {
      closing = true // a voice sample asked for now must not start the engine again
      await (await ttsEngine?.catch(() => undefined))?.close()
    },
  }
}
