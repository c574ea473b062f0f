import { describe, expect, it } from 'vitest'
import { escapeForEspeak, normaliseSpeechText } from '../../../src/engines/tts/speech-text'

describe('normaliseSpeechText', () => {
  it('collapses every kind of whitespace into single spaces and trims', () => {
    expect(normaliseSpeechText('  Hello,\n\tworld.\r\n\u00a0Bye\u2003now  ')).toBe('Hello, world. Bye now')
  })

  it('drops control characters and the byte order mark', () => {
    expect(normaliseSpeechText('\uFEFFone\u0000 two\u0007\u009B')).toBe('one two')
  })

  it('composes Arabic and Latin text to NFC', () => {
    expect(normaliseSpeechText('cafe\u0301')).toBe('caf\u00e9')
    expect(normaliseSpeechText('\u0627\u0653')).toBe('\u0622') // alef + madda above -> alef with madda
  })

  it('is empty when nothing speakable is left', () => {
    expect(normaliseSpeechText(' \n\u0000\t ')).toBe('')
  })
})

describe('escapeForEspeak', () => {
  it('turns markup characters into entities so eSpeak reads them as text', () => {
    expect(escapeForEspeak('a <b> & c')).toBe('a &lt;b&gt; &amp; c')
    expect(escapeForEspeak('&lt;')).toBe('&amp;lt;')
  })

  it('splits every [[ so no phoneme input is taken from the text', () => {
    expect(escapeForEspeak("[[h@l'oU]] [[[x")).toBe("[ [h@l'oU]] [ [ [x")
    expect(escapeForEspeak('[a] [b]')).toBe('[a] [b]')
  })
})
