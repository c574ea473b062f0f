import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyPronunciations } from '../../../src/engines/tts/pronunciations'
import { createEspeakTtsEngine, type TtsEngine } from '../../../src/engines/tts/tts-engine'
import { VOICES } from '../../../src/shared/voices'

const voice = (name: string) => VOICES.find((candidate) => candidate.name === name)!.id
const AVA = voice('Ava')
const OMAR = voice('Omar')

describe('applyPronunciations', () => {
  it('replaces whole words in any case, once, longest first', () => {
    const entries = [
      { word: 'Rowe', pronunciation: 'roe' },
      { word: 'Dr. Rowe', pronunciation: 'doctor roe' },
      { word: 'roe', pronunciation: 'never again' },
    ]
    expect(applyPronunciations('Dr. Rowe and ROWE, not Rowena or Rowe2.', entries)).toBe('doctor roe and roe, not Rowena or Rowe2.')
    expect(applyPronunciations('nothing here', entries)).toBe('nothing here')
    expect(applyPronunciations('Rowe', [])).toBe('Rowe')
    expect(applyPronunciations('Rowe', undefined)).toBe('Rowe')
  })

  it('matches Arabic words whole, clitics and diacritised forms apart, and words with regex characters literally', () => {
    const entries = [
      { word: 'سعد', pronunciation: 'سَعْد' },
      { word: 'C++', pronunciation: 'see plus plus' },
      { word: 'a.b', pronunciation: 'a dot b' },
    ]
    expect(applyPronunciations('مرحبا سعد، وسعد وسعدية', entries)).toBe('مرحبا سَعْد، وسعد وسعدية')
    expect(applyPronunciations('I code C++ and a.b but not axb', entries)).toBe('I code see plus plus and a dot b but not axb')
  })

  it('is the first entry for a word given twice, and reads words with other spacing the same', () => {
    expect(
      applyPronunciations('New York', [
        { word: 'new \n  york', pronunciation: 'first' },
        { word: 'NEW YORK', pronunciation: 'second' },
      ]),
    ).toBe('first')
  })

  it('applies 1,000 entries to a 5,000-character text quickly', () => {
    const entries = Array.from({ length: 1_000 }, (_, index) => ({ word: `term${index}`, pronunciation: `term number ${index}` }))
    const text = Array.from({ length: 500 }, (_, index) => `term${index * 2}`).join(' ')
    const started = performance.now()
    const said = applyPronunciations(text, entries)
    expect(performance.now() - started).toBeLessThan(250)
    expect(said.startsWith('term number 0 term number 2 ')).toBe(true)
  })
})

describe('the engine with a voice dictionary', () => {
  let engine: TtsEngine
  beforeAll(async () => {
    engine = await createEspeakTtsEngine({ workers: 1 })
  })
  afterAll(async () => engine.close())

  it('says the pronunciation instead of the word, in English and in Arabic (phonemes and audio length)', async () => {
    const english = [{ word: 'Nguyen', pronunciation: 'win' }]
    const without = await engine.phonemes('Please ask for Nguyen today.', AVA)
    const withDictionary = await engine.phonemes('Please ask for Nguyen today.', AVA, { pronunciations: english })
    expect(withDictionary).not.toBe(without)
    expect(withDictionary).toBe(await engine.phonemes('Please ask for win today.', AVA))

    const arabic = [{ word: 'د', pronunciation: 'دكتور' }]
    const bare = await engine.synthesize('مرحبا د سعد', OMAR)
    const spoken = await engine.synthesize('مرحبا د سعد', OMAR, { pronunciations: arabic })
    expect(await engine.phonemes('مرحبا د سعد', OMAR, { pronunciations: arabic })).toBe(await engine.phonemes('مرحبا دكتور سعد', OMAR))
    expect(spoken.durationSeconds).toBeGreaterThan(bare.durationSeconds + 0.15)
  })
})
