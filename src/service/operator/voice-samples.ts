import { TtsEngineError, type TtsEngine } from '../../engines/tts/tts-engine'
import { findVoice, type VoiceLang } from '../../shared/voices'
import { invalid, ServiceError } from '../ops/service-error'

/** What a voice says when no text is given: a line in the voice's own language. */
export const SAMPLE_SENTENCES: Record<VoiceLang, string> = {
  en: 'Hello! This is how I will sound when I answer your calls.',
  ar: 'مرحباً! هكذا سيبدو صوتي عندما أجيب على مكالماتك.',
}

/** Samples are kept while their data: URLs add up to less than this (the default sentences of all 14 voices take some 3 MB). */
export const SAMPLE_CACHE_BYTES = 16 * 1024 * 1024

export interface VoiceSample {
  voiceId: string
  /** `data:audio/wav;base64,...`: the renderer plays it without another request. */
  audioDataUrl: string
  durationSeconds: number
}

/**
 * "Hear this voice": a short WAV from the runtime's warm TTS engine (the one jobs use), kept
 * in memory per voice and text, least recently used first out. A sample asked for while it
 * is being made shares that synthesis.
 */
export class VoiceSamples {
  private readonly cache = new Map<string, Promise<VoiceSample>>()
  private readonly sizes = new Map<string, number>()
  private cachedBytes = 0

  constructor(
    private readonly engine: () => Promise<TtsEngine>,
    private readonly maxBytes = SAMPLE_CACHE_BYTES,
  ) {}

  sample(voiceId: string, text?: string): Promise<VoiceSample> {
    const voice = findVoice(voiceId)
    if (!voice) return Promise.reject(new ServiceError('NOT_FOUND', `No voice with id ${JSON.stringify(voiceId)}`))
    const spoken = text ?? SAMPLE_SENTENCES[voice.lang]
    const key = `${voiceId}\n${spoken}`
    const hit = this.cache.get(key)
    if (hit) {
      // Most recently used goes last; eviction takes from the front.
      this.cache.delete(key)
      this.cache.set(key, hit)
      return hit
    }
    const made = this.synthesize(voiceId, spoken)
    this.cache.set(key, made)
    made.then(
      (sample) => this.admit(key, sample.audioDataUrl.length),
      () => this.cache.delete(key), // a failure is not remembered: the next ask tries again
    )
    return made
  }

  private async synthesize(voiceId: string, text: string): Promise<VoiceSample> {
    try {
      const speech = await (await this.engine()).synthesize(text, voiceId)
      return { voiceId, audioDataUrl: `data:audio/wav;base64,${speech.wav.toString('base64')}`, durationSeconds: speech.durationSeconds }
    } catch (error) {
      if (error instanceof TtsEngineError && error.code === 'EMPTY_TEXT') throw invalid('text', 'Nothing in this text can be spoken')
      throw error
    }
  }

  private admit(key: string, bytes: number): void {
    if (!this.cache.has(key)) return
    this.sizes.set(key, bytes)
    this.cachedBytes += bytes
    for (const oldest of this.cache.keys()) {
      if (this.cachedBytes <= this.maxBytes || oldest === key) break
      this.cachedBytes -= this.sizes.get(oldest) ?? 0
      this.sizes.delete(oldest)
      this.cache.delete(oldest)
    }
  }
}
