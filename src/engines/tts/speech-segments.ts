/**
 * The most characters one request to a worker carries (a sentence or two, ~10 s of speech: about
 * 50 ms of synthesis on a quiet warm worker, a few hundred on a loaded 2-core machine). A longer text
 * is spoken segment by segment, each queued anew, so a 5,000-character job holds a worker no longer
 * than this before a call's sentence can run. 300 measured twice as slow a first call audio (bench/tts-pool.ts).
 */
export const MAX_SEGMENT_CHARS = 150

/**
 * Cuts speakable text into segments of at most `maxChars`, at sentence ends where it can
 * (Intl.Segmenter's sentence boundaries, which know "؟" and "."), sentences joined while they
 * fit; a sentence longer than that is cut at its last space (or comma) before the limit.
 * The segments together hold every word of `text` in order.
 */
export function speechSegments(text: string, language: string, maxChars = MAX_SEGMENT_CHARS): string[] {
  if (text.length <= maxChars) return [text]
  const segments: string[] = []
  let current = ''
  for (const { segment } of new Intl.Segmenter(language, { granularity: 'sentence' }).segment(text)) {
    if (current.length + segment.length <= maxChars) {
      current += segment
      continue
    }
    if (current) segments.push(current)
    current = ''
    let rest = segment
    while (rest.length > maxChars) {
      const window = rest.slice(0, maxChars)
      const cut = Math.max(window.lastIndexOf(' '), window.lastIndexOf(','), window.lastIndexOf('،'))
      const end = cut > maxChars / 2 ? cut + 1 : maxChars
      segments.push(rest.slice(0, end))
      rest = rest.slice(end)
    }
    current = rest
  }
  if (current) segments.push(current)
  return segments.filter((segment) => segment.trim() !== '')
}
