/*
 * Subtitles from a transcript's segments: SubRip (SRT) and WebVTT. Players differ in what they
 * forgive, so both are written strictly: cues numbered from 1 (SRT), times as HH:MM:SS,mmm
 * (SRT) or HH:MM:SS.mmm (WebVTT), a blank line between cues, and no blank line inside a cue's
 * text (a blank line would end the cue early).
 */

export interface SubtitleSegment {
  /** Seconds from the start of the media. */
  start: number
  end: number
  text: string
}

export type SubtitleFormat = 'srt' | 'vtt'

export const SUBTITLE_CONTENT_TYPES: Record<SubtitleFormat, string> = {
  srt: 'application/x-subrip; charset=utf-8',
  vtt: 'text/vtt; charset=utf-8',
}

/** A cue's time: whole milliseconds, never negative, hours not wrapped (a 30-hour recording stays 30:…). */
function clock(seconds: number, separator: ',' | '.'): string {
  const total = Math.max(0, Math.round((Number.isFinite(seconds) ? seconds : 0) * 1000))
  const milliseconds = total % 1000
  const wholeSeconds = Math.floor(total / 1000)
  const pad = (value: number, width = 2) => String(value).padStart(width, '0')
  return `${pad(Math.floor(wholeSeconds / 3600))}:${pad(Math.floor(wholeSeconds / 60) % 60)}:${pad(wholeSeconds % 60)}${separator}${pad(milliseconds, 3)}`
}

/** The cues worth writing: text trimmed, blank lines inside folded away, empty ones dropped, an end never before its start. */
function cues(segments: readonly SubtitleSegment[]): SubtitleSegment[] {
  return segments
    .map((segment) => ({
      start: segment.start,
      end: Math.max(segment.start, segment.end),
      text: segment.text
        .split(/\r\n|\r|\n/)
        .map((line) => line.trim())
        .filter(Boolean)
        .join('\n'),
    }))
    .filter((segment) => segment.text !== '')
}

export function toSrt(segments: readonly SubtitleSegment[]): string {
  return cues(segments)
    .map((cue, index) => `${index + 1}\n${clock(cue.start, ',')} --> ${clock(cue.end, ',')}\n${cue.text}\n`)
    .join('\n')
}

/** WebVTT forbids "-->" in a cue's text (it would read as timing); it is written with an arrow instead. */
export function toVtt(segments: readonly SubtitleSegment[]): string {
  const body = cues(segments)
    .map((cue) => `${clock(cue.start, '.')} --> ${clock(cue.end, '.')}\n${cue.text.replaceAll('-->', '→')}\n`)
    .join('\n')
  return body ? `WEBVTT\n\n${body}` : 'WEBVTT\n'
}

export function toSubtitles(segments: readonly SubtitleSegment[], format: SubtitleFormat): string {
  return format === 'srt' ? toSrt(segments) : toVtt(segments)
}
