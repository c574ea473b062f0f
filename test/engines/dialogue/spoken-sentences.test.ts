import { describe, expect, it } from 'vitest'
import { SentenceSplitter, spoken, visibleText } from '../../../src/engines/dialogue/spoken-sentences'

/** Feeds the pieces one by one; returns what each push gave, then what flush gave. */
function split(...pieces: string[]): string[][] {
  const splitter = new SentenceSplitter()
  return [...pieces.map((piece) => splitter.push(piece)), splitter.flush()]
}

describe('SentenceSplitter', () => {
  it('gives each sentence as soon as the whitespace after its end arrives', () => {
    expect(split('Hello there. How', ' are you? I am', ' fine!')).toEqual([['Hello there.'], ['How are you?'], [], ['I am fine!']])
  })

  it('does not cut inside numbers, addresses or list numbers', () => {
    expect(split('It costs 3', '.', '5 dinars, see example.com for more.', ' 1. Bring your card.')).toEqual([
      [],
      [],
      [],
      ['It costs 3.5 dinars, see example.com for more.'],
      ['1. Bring your card.'],
    ])
  })

  it('cuts at Arabic question marks, ellipses and line breaks, keeping closing quotes', () => {
    expect(split('هل تريد موعداً؟ حسناً… ', 'He said "fine." Then\nnext line')).toEqual([
      ['هل تريد موعداً؟', 'حسناً…'],
      ['He said "fine."', 'Then'],
      ['next line'],
    ])
  })

  it('takes out Markdown a model wrote anyway', () => {
    expect(spoken('  - **Monday** at `10`  ')).toBe('Monday at 10')
    expect(spoken('## Opening hours')).toBe('Opening hours')
  })
})

describe('visibleText', () => {
  it('leaves out think blocks, holds a tag that may be starting, and only ever grows', () => {
    expect(visibleText('Hi <thi')).toBe('Hi ')
    expect(visibleText('Hi <thi', true)).toBe('Hi <thi')
    expect(visibleText('Hi <think>hmm')).toBe('Hi ')
    expect(visibleText('Hi <think>hmm</think> there')).toBe('Hi  there')
    expect(visibleText('a < b')).toBe('a < b')
  })
})
