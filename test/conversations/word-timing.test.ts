import { describe, expect, it } from 'vitest'
import { timeWords, wordsHeard } from '../../src/conversations/word-timing'
import { CALLER_VOICES, spokenSamples } from '../helpers/spoken-audio'

/*
 * Word timing checked against eSpeak itself: the real voice speaks each sentence whole, and each
 * of its prefixes ("Hello", "Hello and", …); where a prefix's voice ends is where that word ends
 * in the whole sentence (give or take the lengthening of a last word). At every 20 ms of the
 * sentence, the words the estimate counts as heard must be within one word of the truth.
 */

const SENTENCES: { text: string; voice: string }[] = [
  { text: 'Hello and welcome to Olive Grove, the finest restaurant by the sea.', voice: CALLER_VOICES.en },
  { text: 'How else can I help?', voice: CALLER_VOICES.enFemale },
  { text: 'Your table for 4 is booked at 9:15 tonight, under the name Sara Haddad.', voice: CALLER_VOICES.en },
  { text: 'أهلا وسهلا بكم في مطعم الزيتون، كيف أستطيع مساعدتك اليوم؟', voice: CALLER_VOICES.ar },
]

const pcm16 = (samples: Float32Array) => Int16Array.from(samples, (sample) => Math.round(sample * 32767))

/** Where the voice ends in `samples`: the last 10 ms window with sound. */
function voiceEnd(samples: Int16Array): number {
  let end = samples.length
  while (end > 0 && Math.abs(samples[end - 1] ?? 0) < 300) end -= 1
  return end
}

describe('word timing from synthesised audio', () => {
  it.each(SENTENCES)(
    'places the words of "$text" within one word of where eSpeak says them',
    async ({ text, voice }) => {
      const whole = pcm16(await spokenSamples(text, voice))
      const words = text.split(' ')
      const truthEnds: number[] = []
      for (let count = 1; count <= words.length; count += 1)
        truthEnds.push(voiceEnd(pcm16(await spokenSamples(words.slice(0, count).join(' '), voice))))
      const timed = timeWords(text, whole, voice)
      expect(timed.map((word) => word.text)).toEqual(words)
      const errorsMs = timed.map((word, index) => (Math.abs(word.end - (truthEnds[index] ?? 0)) * 1000) / 16_000)
      let worst = 0
      for (let played = 0; played <= whole.length; played += 320) {
        const estimated = wordsHeard(timed, played).length
        const fullyPlayed = truthEnds.filter((end) => end <= played).length
        // The truth: every fully played word is heard, and so may be the one playing now.
        const off = estimated < fullyPlayed ? fullyPlayed - estimated : Math.max(0, estimated - (fullyPlayed + 1))
        worst = Math.max(worst, off)
      }
      console.info(
        `word timing "${text.slice(0, 30)}…": end error median ${median(errorsMs).toFixed(0)} ms, max ${Math.max(...errorsMs).toFixed(0)} ms; worst miscount ${worst} word(s)`,
      )
      expect(worst).toBeLessThanOrEqual(1)
    },
    60_000,
  )

  it('answers no words for nothing played, all of them for all of it, and copes with silence and empty text', () => {
    const tone = Int16Array.from({ length: 16_000 }, (_, index) => Math.round(8_000 * Math.sin(index / 5)))
    const timed = timeWords('one two three', tone, CALLER_VOICES.en)
    expect(wordsHeard(timed, 0)).toEqual([])
    expect(wordsHeard(timed, tone.length).map((word) => word.text)).toEqual(['one', 'two', 'three'])
    const silent = timeWords('quiet words', new Int16Array(8_000), CALLER_VOICES.en)
    expect(silent.map((word) => word.end)).toEqual([4_000, 8_000])
    expect(timeWords('   ', tone, CALLER_VOICES.en)).toEqual([])
    expect(timeWords('unknown voice', tone, 'not-a-voice')).toHaveLength(2)
  })
})

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? 0
}
