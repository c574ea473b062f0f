/*
 * A model's answer as it streams in, cut into sentences that can be spoken one by one: the first
 * sentence goes to speech while the model is still writing the rest.
 */

/** Marks that end a sentence when whitespace follows them (or the answer ends). */
const TERMINATORS = new Set(['.', '!', '?', '؟', '…'])
/** What may stand between a terminator and the whitespace: more terminators, closing quotes and brackets. */
const TRAILERS = new Set([...TERMINATORS, '"', "'", '”', '’', '»', ')', ']'])

/**
 * Cuts streamed text into sentences: after . ! ? ؟ … followed by whitespace, and at every line
 * break. A dot followed by anything but whitespace is not an end (3.5, example.com), nor is the
 * dot of a list number ("1. "). A terminator at the very end of what arrived so far waits for the
 * next piece, which decides.
 */
export class SentenceSplitter {
  private pending = ''

  /** Adds the next piece of the answer; returns the sentences it completed. */
  push(text: string): string[] {
    this.pending += text
    return this.take(false)
  }

  /** The answer is complete: returns what is left as a last sentence (if anything is). */
  flush(): string[] {
    return this.take(true)
  }

  private take(final: boolean): string[] {
    const sentences: string[] = []
    let start = 0
    let i = 0
    const text = this.pending
    while (i < text.length) {
      const char = text[i]!
      if (char === '\n') {
        sentences.push(text.slice(start, i))
        start = i + 1
        i = start
        continue
      }
      if (!TERMINATORS.has(char)) {
        i += 1
        continue
      }
      let end = i + 1
      while (end < text.length && TRAILERS.has(text[end]!)) end += 1
      if (end === text.length && !final) break // the next piece decides
      const atEnd = end === text.length
      const listNumber = char === '.' && end === i + 1 && /^\s*\d+$/.test(text.slice(start, i))
      if ((atEnd || /\s/.test(text[end]!)) && !listNumber) {
        sentences.push(text.slice(start, end))
        start = end
      }
      i = end
    }
    if (final) {
      sentences.push(text.slice(start))
      this.pending = ''
    } else {
      this.pending = text.slice(start)
    }
    return sentences.map(spoken).filter((sentence) => sentence.length > 0)
  }
}

/** A whole text (a greeting, an answer written at once) cut into the sentences it is spoken in. */
export function splitSentences(text: string): string[] {
  const splitter = new SentenceSplitter()
  return [...splitter.push(text), ...splitter.flush()]
}

/**
 * A sentence as it should be spoken: Markdown a model wrote despite being told not to (emphasis,
 * code marks, headings, bullets) taken out, whitespace on one line.
 */
export function spoken(sentence: string): string {
  return sentence
    .replace(/\*\*|__|`/g, '')
    .replace(/^\s*(#{1,6}\s+|[-*•]\s+)/, '')
    .replace(/\s+/g, ' ')
    .trim()
}

const THINK_OPEN = '<think>'
const THINK_CLOSE = '</think>'

/**
 * What of a reasoning model's raw text is meant to be heard: `<think>…</think>` blocks left out,
 * and while a block is open (or a tag may be starting at the end) nothing from it on. As `raw`
 * grows, the visible text only grows, so it can be fed to the splitter piece by piece.
 * `final`: the answer is complete (a trailing "<thi" is then text).
 */
export function visibleText(raw: string, final = false): string {
  let text = raw.includes(THINK_CLOSE) ? raw.replace(/<think>[\s\S]*?<\/think>/g, '') : raw
  const open = text.indexOf(THINK_OPEN)
  if (open >= 0) text = text.slice(0, open)
  if (!final) {
    for (let length = Math.min(THINK_OPEN.length - 1, text.length); length > 0; length -= 1) {
      if (THINK_OPEN.startsWith(text.slice(-length))) {
        text = text.slice(0, -length)
        break
      }
    }
  }
  return text
}
