import { speakableText } from '../engines/tts/speakable-text'
import { speechLanguageOf, voiceProfileFor } from '../engines/tts/voice-profiles'

/*
 * Where each word of a synthesised sentence lies in its audio, estimated from the audio itself:
 * the engine gives no word events, so each word gets a share of the sentence's voiced time in
 * proportion to the letters the voice says for it (digits and amounts counted as the words they
 * are read as). Silences (before, after, and the pauses at commas) belong to no word, so a pause
 * does not push the words after it early. Measured against eSpeak itself (word-timing.test.ts):
 * the estimate is within one word of the truth at every cut point.
 */

/** One word of the sentence's text as written, and where it plays (samples from the sentence's first sample). */
export interface TimedWord {
  readonly text: string
  readonly start: number
  readonly end: number
}

/** Analysis windows of 10 ms at 16 kHz. */
const WINDOW = 160
/** A window is voiced when its RMS reaches this share of the sentence's loudest window (or an absolute floor). */
const VOICED_SHARE = 0.04
const VOICED_FLOOR = 120
/** A quiet run shorter than this inside speech (a stop consonant's closure) still counts as speech. */
const BRIDGED_GAP_WINDOWS = 6

/** The words of `text` with where each plays in `samples` (PCM16 of that text, spoken by `voiceId`). */
export function timeWords(text: string, samples: Int16Array, voiceId: string): TimedWord[] {
  const words = text.split(/\s+/).filter(Boolean)
  if (words.length === 0) return []
  const profile = voiceProfileFor(voiceId)
  const language = profile ? speechLanguageOf(profile) : 'en'
  const weights = words.map((word) => spokenLetters(word, language))
  const voiced = voicedWindows(samples)
  const voicedTotal = voiced.reduce((sum, isVoiced) => sum + (isVoiced ? 1 : 0), 0)
  if (voicedTotal === 0) {
    // No speech found (a test double's tone, silence): spread the words over the whole audio.
    return spread(words, weights, (share) => Math.round(share * samples.length))
  }
  // Sample position at which the voiced time reaches `share` of all voiced time.
  const atVoicedShare = (share: number): number => {
    const target = share * voicedTotal
    let seen = 0
    for (let index = 0; index < voiced.length; index += 1) {
      if (!voiced[index]) continue
      if (seen + 1 >= target) return Math.min(samples.length, Math.round((index + Math.max(0, target - seen)) * WINDOW))
      seen += 1
    }
    return samples.length
  }
  return spread(words, weights, atVoicedShare)
}

/** The words as written that have been heard once `played` samples of the sentence played: a word counts once its middle played. */
export function wordsHeard(words: readonly TimedWord[], played: number): TimedWord[] {
  const heard: TimedWord[] = []
  for (const word of words) {
    if (played < (word.start + word.end) / 2) break
    heard.push(word)
  }
  return heard
}

function spread(words: string[], weights: number[], position: (share: number) => number): TimedWord[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0)
  const timed: TimedWord[] = []
  let before = 0
  for (const [index, text] of words.entries()) {
    const start = position(before / total)
    before += weights[index] ?? 0
    timed.push({ text, start, end: Math.max(start, position(before / total)) })
  }
  return timed
}

/** Letters (and digits) the voice says for `word`: numbers, times and amounts as their spoken words. */
function spokenLetters(word: string, language: 'ar' | 'en'): number {
  const spoken = speakableText(word, language)
  // Arabic vowel marks are said but are not letters of their own: count base letters only.
  const letters = spoken.replace(/[\u064B-\u065F\u0670]/gu, '').match(/[\p{L}\p{N}]/gu)?.length ?? 0
  return Math.max(1, letters)
}

/** Per 10 ms window: speech or not, short quiet runs inside speech bridged. */
function voicedWindows(samples: Int16Array): boolean[] {
  const count = Math.ceil(samples.length / WINDOW)
  const rms: number[] = []
  for (let window = 0; window < count; window += 1) {
    let sum = 0
    const end = Math.min(samples.length, (window + 1) * WINDOW)
    for (let index = window * WINDOW; index < end; index += 1) sum += (samples[index] ?? 0) ** 2
    rms.push(Math.sqrt(sum / Math.max(1, end - window * WINDOW)))
  }
  const threshold = Math.max(VOICED_FLOOR, VOICED_SHARE * Math.max(0, ...rms))
  const voiced = rms.map((value) => value >= threshold)
  let lastVoiced = -1
  for (let window = 0; window < count; window += 1) {
    if (!voiced[window]) continue
    if (lastVoiced >= 0 && window - lastVoiced - 1 < BRIDGED_GAP_WINDOWS) voiced.fill(true, lastVoiced + 1, window)
    lastVoiced = window
  }
  return voiced
}
