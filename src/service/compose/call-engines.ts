import { createHash } from 'node:crypto'
import { createResampler, type Resampler } from '../../engines/audio/speex-resampler'
import { estimateGender } from '../../engines/audio/caller-gender'
import { createTurnDetector } from '../../engines/audio/turn-detector'
import type { DialogueEngine } from '../../engines/dialogue/dialogue-engine'
import { createOfflineDialogueEngine } from '../../engines/dialogue/offline-dialogue-engine'
import { createOpenAiCompatibleDialogueEngine } from '../../engines/dialogue/openai-compatible-dialogue-engine'
import type { SttEngine } from '../../engines/stt/stt-engine'
import type { TtsEngine } from '../../engines/tts/tts-engine'
import { SharedSpeech } from '../../engines/tts/shared-speech'
import type { Pronunciation } from '../../engines/tts/pronunciations'
import { CALL_SAMPLE_RATE, type CallAudio } from '../../conversations/call-audio'
import type { Logger } from 'pino'
import type { SecretBox } from '../../store/secret-box'
import type { Store } from '../../store/ports'
import { readAiContentSetting } from '../settings/ai-content-settings'
import { createSttEngine } from '../settings/stt-settings'

/** The engines one call uses, chosen when it starts (a changed setting counts from the next call). */
export interface ChosenCallEngines {
  dialogue: DialogueEngine
  stt: SttEngine | undefined
}

export interface CallEnginesOptions {
  store: Store
  secrets: SecretBox
  /** The warm eSpeak engine the runtime shares with TTS jobs. */
  speech: () => Promise<TtsEngine>
  /** Overrides of the settings (tests, embedders). */
  dialogue?: DialogueEngine
  stt?: SttEngine | null
  /** Where a voice detector that could not start says so (the call goes on with the energy detector). */
  log?: Pick<Logger, 'warn'>
}

/**
 * The engines of live calls, as the settings choose them: the dialogue follows the AI engine
 * (`voicedesk ai-engine`: offline slot filling, or an OpenAI-compatible chat model), speech
 * recognition its own setting (`voicedesk stt-engine`: off by default, no weights ship). Both
 * are read when a call is made, so a change made by the CLI in another process counts too.
 */
export class CallEngines {
  readonly audio: CallAudio
  private resampler: Promise<Resampler> | undefined
  /**
   * About 19 MB of the agents' sentences at the call rate (ten minutes of speech). With two
   * minutes, the test runs of twelve agents at once (every template's starter suite) evicted
   * their own questions: about 450 syntheses for 200 distinct sentences, some 4 s of CPU more.
   */
  private readonly sentences = new SharedSpeech({ maxSamples: 600 * CALL_SAMPLE_RATE })

  constructor(private readonly options: CallEnginesOptions) {
    this.audio = {
      speak: (text, voiceId, signal, pronunciations) => this.speak(text, voiceId, signal, pronunciations),
      turnDetector: (turnOptions) =>
        createTurnDetector({
          ...turnOptions,
          sampleRate: CALL_SAMPLE_RATE,
          onFallback: options.log ? (message, error) => options.log?.warn({ err: error }, message) : undefined,
        }),
      estimateGender,
    }
  }

  async choose(): Promise<ChosenCallEngines> {
    const { store, secrets } = this.options
    let dialogue = this.options.dialogue
    if (!dialogue) {
      const setting = await readAiContentSetting(store)
      dialogue =
        setting.engine === 'offline'
          ? createOfflineDialogueEngine()
          : createOpenAiCompatibleDialogueEngine({
              baseUrl: setting.baseUrl,
              model: setting.model,
              apiKey: setting.apiKeySealed ? secrets.decrypt(setting.apiKeySealed) : undefined,
              timeoutMs: setting.timeoutMs,
            })
    }
    return { dialogue, stt: await this.stt() }
  }

  private async stt(): Promise<SttEngine | undefined> {
    return this.options.stt === undefined ? createSttEngine(this.options.store, this.options.secrets) : (this.options.stt ?? undefined)
  }

  /** What a call made now would use, for its record: the dialogue engine (and its model), speech recognition. */
  async describe(): Promise<{ dialogue: string; model: string; stt: { engine: string; model: string } | null }> {
    // The settings alone say it: no dialogue engine is made just to be named.
    const setting = this.options.dialogue ? undefined : await readAiContentSetting(this.options.store)
    const dialogue = this.options.dialogue?.name ?? (setting?.engine === 'openai-compatible' ? 'openai-compatible' : 'offline')
    const model = setting?.engine === 'openai-compatible' ? setting.model : dialogue === 'offline' ? 'voicedesk-slot-filling' : dialogue
    const stt = await this.stt()
    return { dialogue, model, stt: stt ? { engine: stt.name, model: stt.model } : null }
  }

  /**
   * The agent's voice at the call's rate: eSpeak speaks at 22050 Hz, the SDK plays 16 kHz. Live:
   * ahead of TTS jobs; the call's sentences share its signal, so they are one flow, served in turn with other calls'.
   */
  private speak(text: string, voiceId: string, signal?: AbortSignal, pronunciations?: readonly Pronunciation[]): Promise<Int16Array> {
    // Made once for every call that says it at the same time or soon after (a greeting); the
    // call's signal keeps its sentences one flow, in order, and leaving drops only its own wait.
    // Calls whose agents have other dictionaries say it apart.
    const said = pronunciations?.length ? `${voiceId}\u0001${dictionaryKey(pronunciations)}` : voiceId
    return this.sentences.speak(text, said, signal, (stop) => this.synthesise(text, voiceId, stop, signal, pronunciations))
  }

  private async synthesise(
    text: string,
    voiceId: string,
    stop: AbortSignal,
    flow: AbortSignal | undefined,
    pronunciations: readonly Pronunciation[] | undefined,
  ): Promise<Int16Array> {
    const audio = await (
      await this.options.speech()
    ).synthesizePcm(text, voiceId, {
      signal: stop,
      priority: 'live',
      ...(flow ? { flow } : {}),
      ...(pronunciations?.length ? { pronunciations } : {}),
    })
    if (audio.sampleRate === CALL_SAMPLE_RATE) return audio.samples
    this.resampler ??= createResampler(audio.sampleRate, CALL_SAMPLE_RATE).catch((error: unknown) => {
      this.resampler = undefined
      throw error
    })
    return (await this.resampler).resample(audio.samples)
  }
}

/** One key per set of entries (a call's list is made once and reused for each of its sentences). */
const dictionaryKeys = new WeakMap<readonly Pronunciation[], string>()
function dictionaryKey(pronunciations: readonly Pronunciation[]): string {
  let key = dictionaryKeys.get(pronunciations)
  if (key === undefined) {
    key = createHash('sha256').update(JSON.stringify(pronunciations)).digest('base64url')
    dictionaryKeys.set(pronunciations, key)
  }
  return key
}
