import type { SubtitleSegment } from './subtitles'

/*
 * Subtitle layout for `returnSrtFormat`: a transcript's segments re-cut into cues a viewer can
 * read, under the cloud reference's `srtOptions` (line length, lines per cue, shortest and
 * longest cue, the gap kept between cues, and the pause under which segments merge).
 */

export interface SrtLayoutOptions {
  maxLinesPerSubtitle: number
  maxCharsPerLine: number
  /** Segments carry no speaker here, so this never splits a cue (kept for what a client asked). */
  singleSpeakerPerSubtitle: boolean
  /** Seconds: segments closer than this may share a cue; a longer pause starts a new one. */
  maxMergeableGap: number
  minDuration: number
  maxDuration: number
  /** Seconds kept free between one cue's end and the next one's start. */
  minGap: number
}

export const SRT_LAYOUT_DEFAULTS: SrtLayoutOptions = {
  maxLinesPerSubtitle: 2,
  maxCharsPerLine: 42,
  singleSpeakerPerSubtitle: true,
  maxMergeableGap: 0.3,
  minDuration: 0.7,
  maxDuration: 7,
  minGap: 0.04,
}

interface TimedWord {
  text: string
  start: number
  end: number
  /** The word opens a segment that follows a pause longer than maxMergeableGap. */
  afterPause: boolean
}

/** A segment's words, its time shared among them by their length (segments carry no word times). */
function wordsOf(segments: readonly SubtitleSegment[], maxMergeableGap: number): TimedWord[] {
  const words: TimedWord[] = []
  let previousEnd: number | undefined
  for (const segment of segments) {
    const parts = segment.text.split(/\s+/).filter(Boolean)
    if (parts.length === 0) continue
    const start = segment.start
    const end = Math.max(segment.start, segment.end)
    const letters = parts.reduce((sum, part) => sum + part.length, 0)
    let at = start
    parts.forEach((part, index) => {
      const length = ((end - start) * part.length) / letters
      words.push({
        text: part,
        start: at,
        end: at + length,
        afterPause: index === 0 && previousEnd !== undefined && start - previousEnd > maxMergeableGap,
      })
      at += length
    })
    previousEnd = end
  }
  return words
}

/** Greedy word wrap; a word longer than a line has a line of its own. */
export function wrapLines(words: readonly string[], maxCharsPerLine: number): string[] {
  const lines: string[] = []
  for (const word of words) {
    const last = lines.at(-1)
    if (last !== undefined && last.length + 1 + word.length <= maxCharsPerLine) lines[lines.length - 1] = `${last} ${word}`
    else lines.push(word)
  }
  return lines
}

/** The segments as cues under `options`: each cue at most maxLinesPerSubtitle lines of maxCharsPerLine, at most maxDuration long. */
export function layOutCues(segments: readonly SubtitleSegment[], options: SrtLayoutOptions): SubtitleSegment[] {
  const groups: TimedWord[][] = []
  let current: TimedWord[] = []
  for (const word of wordsOf(segments, options.maxMergeableGap)) {
    const candidate = [...current, word]
    const first = current[0]
    const tooLong = first !== undefined && word.end - first.start > options.maxDuration
    const tooWide =
      wrapLines(
        candidate.map((entry) => entry.text),
        options.maxCharsPerLine,
      ).length > options.maxLinesPerSubtitle
    if (current.length > 0 && (word.afterPause || tooLong || tooWide)) {
      groups.push(current)
      current = [word]
    } else {
      current = candidate
    }
  }
  if (current.length > 0) groups.push(current)

  // Every group holds a word: a group is pushed only when it has one.
  const cues = groups.map((group) => ({
    start: group[0]?.start ?? 0,
    end: group.at(-1)?.end ?? 0,
    text: wrapLines(
      group.map((word) => word.text),
      options.maxCharsPerLine,
    ).join('\n'),
  }))
  // Shortest cue first (never into the next cue's gap), then the gap itself wins over the length.
  cues.forEach((cue, index) => {
    const next = cues[index + 1]
    const latest = next === undefined ? Number.POSITIVE_INFINITY : next.start - options.minGap
    cue.end = Math.min(Math.max(cue.end, cue.start + options.minDuration), Math.max(latest, cue.start))
  })
  return cues
}
