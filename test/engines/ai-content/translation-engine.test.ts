/**
 * The translation engine's own rules: how a long text is cut and put back, how strings are
 * batched, and its errors. Its requests go over real HTTP to a loopback double
 * (helpers/translation-model-double.ts) standing for a model server outside this machine.
 */
import { describe, expect, it } from 'vitest'
import { createOpenAiCompatibleTranslationEngine } from '../../../src/engines/ai-content/translation-engine'
import { guessSourceLanguage } from '../../../src/engines/ai-content/translation-language'
import { splitIntoPieces } from '../../../src/engines/ai-content/translation-pieces'
import { doubleTranslation, startTranslationModelDouble } from '../../helpers/translation-model-double'

describe('splitIntoPieces', () => {
  it('keeps each line a piece, and the line breaks and outer spaces as they were', () => {
    const text = '  First line.\n\nSecond line.  \r\n\tThird.\n'
    const { pieces, join } = splitIntoPieces(text, 100)
    expect(pieces).toEqual(['First line.', 'Second line.', 'Third.'])
    expect(join(pieces)).toBe(text)
    expect(join(['1', '2', '3'])).toBe('  1\n\n2  \r\n\t3\n')
  })

  it('cuts a long line between sentences, a long sentence between words, and a long word by characters', () => {
    const sentences = 'One two three. Four five six! Seven eight nine? Ten.'
    expect(splitIntoPieces(sentences, 30).pieces).toEqual(['One two three. Four five six!', 'Seven eight nine? Ten.'])
    expect(splitIntoPieces('هذه جملة أولى؟ وهذه جملة ثانية.', 16).pieces).toEqual(['هذه جملة أولى؟', 'وهذه جملة ثانية.'])
    expect(splitIntoPieces('alpha beta gamma delta epsilon', 11).pieces).toEqual(['alpha beta', 'gamma delta', 'epsilon'])
    expect(splitIntoPieces('abcdefghij', 4).pieces).toEqual(['abcd', 'efgh', 'ij'])
    for (const [text, max] of [
      [sentences, 30],
      ['alpha beta gamma delta epsilon', 11],
      ['x'.repeat(50) + ' tail.\nnext', 7],
    ] as const) {
      const { pieces, join } = splitIntoPieces(text, max)
      expect(join(pieces)).toBe(text)
      expect(pieces.every((piece) => [...piece].length <= max && piece.trim() === piece && piece.length > 0)).toBe(true)
    }
  })

  it('refuses a join with another count of translations', () => {
    expect(() => splitIntoPieces('a\nb', 10).join(['x'])).toThrow(/2 translations were expected, not 1/)
  })
})

describe('guessSourceLanguage', () => {
  it('tells Arabic by its letters, English by its function words, and leaves other languages to the model', () => {
    expect(guessSourceLanguage('مرحبا، شكرا لاتصالك بنا.')).toBe('ar')
    expect(guessSourceLanguage('Thanks for calling, how can I help you today?')).toBe('en')
    expect(guessSourceLanguage('Bonjour, merci de votre appel, comment puis-je vous aider ?')).toBeNull()
    expect(guessSourceLanguage('OK')).toBeNull()
  })
})

describe('the OpenAI-compatible translation engine', () => {
  it('batches by count and by size, skips blank segments, and tells its progress', async () => {
    const model = await startTranslationModelDouble()
    const engine = createOpenAiCompatibleTranslationEngine({ baseUrl: model.url, model: 'm', batchSize: 3, batchCharacters: 25 })
    const segments = ['aaaaaaaaaa', 'bbbbbbbbbb', ' ', 'cccccccccc', 'dd', 'ee', 'ff', 'gg'].map((text, index) => ({
      start: index,
      end: index + 0.5,
      text,
    }))
    const progress: [number, number][] = []
    const translated = await engine.translateSegments(
      segments,
      { from: 'en', to: 'ar' },
      { onProgress: (done, total) => void progress.push([done, total]) },
    )
    expect(translated).toEqual(
      segments.map((segment) => ({ ...segment, text: segment.text.trim() ? doubleTranslation(segment.text, 'ar') : segment.text })),
    )
    expect(model.requests.map((request) => request.texts)).toEqual([
      ['aaaaaaaaaa', 'bbbbbbbbbb'],
      ['cccccccccc', 'dd', 'ee'],
      ['ff', 'gg'],
    ])
    expect(progress).toEqual([
      [2, 7],
      [5, 7],
      [7, 7],
    ])
  })

  it('answers a caller abort with its reason, and a slow server with "did not answer within"', async () => {
    const model = await startTranslationModelDouble()
    const engine = createOpenAiCompatibleTranslationEngine({ baseUrl: model.url, model: 'm', timeoutMs: 1_000 })
    const controller = new AbortController()
    controller.abort(new Error('stopping'))
    await expect(engine.translateText('Hello there.', { from: null, to: 'ar' }, { signal: controller.signal })).rejects.toThrow('stopping')
    expect(model.requests).toHaveLength(0)

    model.answer(() => 'hang')
    await expect(engine.translateText('Hello there.', { from: null, to: 'ar' })).rejects.toThrow(
      /did not answer within 1000 ms \(model m\)/,
    )
  })
})
