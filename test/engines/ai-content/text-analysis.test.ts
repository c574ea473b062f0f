import { describe, expect, it } from 'vitest'
import { splitText, tidySentence, tokenise } from '../../../src/engines/ai-content/text-analysis'

const texts = (input: string) => splitText(input).sentences.map((sentence) => sentence.text)

describe('splitText', () => {
  it('removes speaker labels from a text laid out by speaker', () => {
    const split = splitText('Host: Welcome back.\nDana Reyes: Thanks. Glad to be here.\nHost: Let us begin.')
    expect(split.hasSpeakerLabels).toBe(true)
    expect(split.sentences.map((sentence) => sentence.text)).toEqual(['Welcome back.', 'Thanks.', 'Glad to be here.', 'Let us begin.'])
    expect(split.sentences.map((sentence) => sentence.turn)).toEqual([0, 1, 1, 2])
  })

  it('keeps a one-off "Note:" in running text', () => {
    const split = splitText('The plan is ready.\nNote: this part was edited.')
    expect(split.hasSpeakerLabels).toBe(false)
    expect(split.sentences.map((sentence) => sentence.text)).toEqual(['The plan is ready.', 'Note: this part was edited.'])
  })

  it('removes timestamps and known role labels', () => {
    expect(texts('[00:01:05] Agent: How can I help you today?')).toEqual(['How can I help you today?'])
    expect(texts('المتحدث 1: مرحبًا بكم في الحلقة.')).toEqual(['مرحبًا بكم في الحلقة.'])
  })

  it('does not end sentences at abbreviations, initials, decimals or a dot before a lower-case word', () => {
    expect(texts('Dr. Smith met J. Doe at 3.5 p.m. today. Then they left! Did it work? Yes.')).toEqual([
      'Dr. Smith met J. Doe at 3.5 p.m. today.',
      'Then they left!',
      'Did it work?',
      'Yes.',
    ])
  })

  it('splits Arabic at Arabic and Latin punctuation and marks questions', () => {
    const split = splitText('هل يوفر الري بالتنقيط المياه؟ نعم، يوفر الكثير. وهذا مهم للمزارعين!')
    expect(split.sentences.map((sentence) => sentence.text)).toEqual([
      'هل يوفر الري بالتنقيط المياه؟',
      'نعم، يوفر الكثير.',
      'وهذا مهم للمزارعين!',
    ])
    expect(split.sentences.map((sentence) => sentence.isQuestion)).toEqual([true, false, false])
  })

  it('cuts an endless unpunctuated sentence into marked pieces', () => {
    const words = Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')
    const pieces = texts(words)
    expect(pieces.length).toBeGreaterThan(4)
    for (const piece of pieces) expect(piece.split(' ').length).toBeLessThanOrEqual(45)
    expect(pieces[0]!.endsWith('…')).toBe(true)
    expect(pieces[1]!.startsWith('…')).toBe(true)
    expect(pieces.join(' ').replace(/…/g, '').replace(/\s+/g, ' ')).toBe(words)
  })

  it('marks a sentence that repeats an earlier one', () => {
    const split = splitText('Insulation comes first. Radiators matter. Insulation comes FIRST!')
    expect(split.sentences.map((sentence) => sentence.isRepeat)).toEqual([false, false, true])
  })
})

describe('tokenise', () => {
  it('gives English words singular lower-case keys and treats function words, contractions and numbers as stop words', () => {
    const tokens = tokenise("We're installing heat pumps and policies for AI in 2024, aren't we?")
    const byDisplay = Object.fromEntries(tokens.map((token) => [token.display, token]))
    expect(byDisplay['pumps']!.key).toBe('pump')
    expect(byDisplay['policies']!.key).toBe('policy')
    expect(byDisplay['AI']!.stop).toBe(false)
    for (const word of ["we're", 'and', 'for', 'in', '2024', "aren't"]) expect(byDisplay[word]?.stop, word).toBe(true)
    expect(byDisplay['heat']!.breakBefore).toBe(false)
    expect(tokens[0]!.breakBefore).toBe(true)
  })

  it('gives Arabic words normalised light-stemmed keys and display forms without fused particles', () => {
    const [farmers, alsoFarmers, drip, water] = tokenise('والمزارعين المزارعون بالتنقيط المياه')
    expect(farmers!.key).toBe(alsoFarmers!.key)
    expect(farmers!.display).toBe('المزارعين')
    expect(drip!.display).toBe('التنقيط')
    expect(drip!.written).toBe('بالتنقيط')
    expect(water!.stop).toBe(false)
    expect(tokenise('وهذا في على').every((token) => token.stop)).toBe(true)
  })

  it('flags names addressed or quoted as speakers', () => {
    expect(tokenise('Daniel, thanks for joining us.')[0]!.speakerMention).toBe(true)
    expect(tokenise('Thanks for having me, Sarah.').at(-1)!.speakerMention).toBe(true)
    expect(tokenise('ويشير المنصوري إلى أهمية الري')[1]!.speakerMention).toBe(true)
    expect(tokenise('Heat pumps, in short, work.')[0]!.speakerMention).toBe(false)
  })
})

describe('tidySentence', () => {
  it('drops spoken fillers and a linking Arabic conjunction, never content words', () => {
    expect(tidySentence('So, yeah, the savings are large.')).toBe('The savings are large.')
    expect(tidySentence('It works, um, really well.')).toBe('It works, really well.')
    expect(tidySentence('So what?')).toBe('So what?')
    expect(tidySentence('فالمزارع الذي يعتمد الري يوفر المياه.')).toBe('المزارع الذي يعتمد الري يوفر المياه.')
    expect(tidySentence('ففي إحدى التجارب انخفض الاستهلاك.')).toBe('في إحدى التجارب انخفض الاستهلاك.')
    expect(tidySentence('فكرة الري بالتنقيط بسيطة.')).toBe('فكرة الري بالتنقيط بسيطة.')
  })
})
