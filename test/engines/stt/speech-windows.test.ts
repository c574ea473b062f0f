import { describe, expect, it } from 'vitest'
import { int16FromFloat32, pcm16FromInt16 } from '../../../src/engines/audio/pcm-encoding'
import type { VoiceClassifier } from '../../../src/engines/audio/voice-classifier'
import { createWebRtcVoiceClassifier } from '../../../src/engines/audio/webrtc-voice-classifier'
import { speechWindows, type SpeechWindow } from '../../../src/engines/stt/speech-windows'
import { spokenSamples } from '../../helpers/spoken-audio'

const RATE = 16_000

/** Real speech (eSpeak) and silences, as 16-bit PCM bytes. */
async function recording(parts: (string | number)[]): Promise<{ pcm: Buffer; speechSpans: [number, number][] }> {
  const pieces: Int16Array[] = []
  const speechSpans: [number, number][] = []
  let at = 0
  for (const part of parts) {
    const samples = typeof part === 'number' ? new Int16Array(Math.round(part * RATE)) : int16FromFloat32(await spokenSamples(part))
    if (typeof part === 'string') speechSpans.push([at, at + samples.length])
    pieces.push(samples)
    at += samples.length
  }
  const all = new Int16Array(at)
  let offset = 0
  for (const piece of pieces) {
    all.set(piece, offset)
    offset += piece.length
  }
  return { pcm: pcm16FromInt16(all), speechSpans }
}

/** Chunks of odd sizes, as a decoder's pipe gives them (an odd byte count splits a sample). */
async function* chunked(pcm: Buffer, size = 4_099): AsyncGenerator<Buffer> {
  for (let offset = 0; offset < pcm.length; offset += size) yield pcm.subarray(offset, offset + size)
}

async function windowsOf(
  pcm: Buffer,
  options: { maxSeconds: number; searchSeconds: number },
  classify: (classifier: VoiceClassifier) => VoiceClassifier = (classifier) => classifier,
): Promise<SpeechWindow[]> {
  const classifier = classify(await createWebRtcVoiceClassifier())
  const windows: SpeechWindow[] = []
  for await (const window of speechWindows(chunked(pcm), { classifier, ...options })) windows.push(window)
  classifier.dispose()
  return windows
}

describe('speech windows', () => {
  it('keeps every sample, in order, in windows no longer than the limit, cut inside pauses rather than words', async () => {
    const sentence = 'The quarterly numbers were better than we expected in every region.'
    const { pcm, speechSpans } = await recording([0.5, sentence, 0.8, sentence, 0.8, sentence, 0.8, sentence, 0.5])
    const windows = await windowsOf(pcm, { maxSeconds: 8, searchSeconds: 4 })
    expect(windows.length).toBeGreaterThan(1)
    const joined = Buffer.concat(windows.map((window) => pcm16FromInt16(window.samples)))
    expect(joined.equals(pcm)).toBe(true)
    let expectedStart = 0
    for (const window of windows) {
      expect(window.startSample).toBe(expectedStart)
      expect(window.samples.length).toBeLessThanOrEqual(8 * RATE)
      expectedStart += window.samples.length
    }
    // Every cut between two windows falls in a silence between sentences, not inside one.
    for (const window of windows.slice(1)) {
      const cut = window.startSample
      expect(speechSpans.some(([start, end]) => cut > start + 160 && cut < end - 160)).toBe(false)
    }
    expect(windows.every((window) => window.voiced)).toBe(true)
  })

  it("cuts the same windows from the classifier's 16-bit samples as from floats (a classifier without the 16-bit path)", async () => {
    const sentence = 'The quarterly numbers were better than we expected in every region.'
    const { pcm } = await recording([0.5, sentence, 6, sentence, 0.3, sentence, 0.5])
    const options = { maxSeconds: 4, searchSeconds: 2 }
    const floatsOnly = (classifier: VoiceClassifier): VoiceClassifier => ({
      isVoice: (frame) => classifier.isVoice(frame),
      dispose: () => classifier.dispose(),
    })
    const direct = await windowsOf(pcm, options)
    expect(direct.length).toBeGreaterThan(3)
    expect(direct.some((window) => !window.voiced)).toBe(true)
    expect(await windowsOf(pcm, options, floatsOnly)).toEqual(direct)
  })

  it('marks a window with no voice, and cuts at the limit when no pause is near', async () => {
    const silence = Buffer.alloc(5 * RATE * 2)
    const windows = await windowsOf(silence, { maxSeconds: 2, searchSeconds: 1 })
    expect(windows.map((window) => window.samples.length)).toEqual([2 * RATE, 2 * RATE, RATE])
    expect(windows.some((window) => window.voiced)).toBe(false)
    // A steady tone: the VAD hears no pause in it, so the cut is at the limit.
    const tone = new Int16Array(3 * RATE).map((_, index) => Math.round(8_000 * Math.sin((2 * Math.PI * 220 * index) / RATE)))
    const toneWindows = await windowsOf(pcm16FromInt16(tone), { maxSeconds: 2, searchSeconds: 1 })
    expect(toneWindows.map((window) => window.samples.length)).toEqual([2 * RATE, RATE])
  })

  it('ends a window with a voice half a second into a long pause, so the silence after speech goes in a window of its own', async () => {
    const sentence = 'Please call me back tomorrow morning.'
    const { pcm, speechSpans } = await recording([0.3, sentence, 8, sentence, 0.3])
    const windows = await windowsOf(pcm, { maxSeconds: 60, searchSeconds: 10 })
    expect(windows.map((window) => window.voiced)).toEqual([true, false, true])
    const [first, quiet, last] = windows as [SpeechWindow, SpeechWindow, SpeechWindow]
    // The first ends in the pause, within a second of the speech's end (the VAD hears a little past it).
    const firstEnd = first.startSample + first.samples.length
    expect(firstEnd).toBeGreaterThan(speechSpans[0]![1])
    expect(firstEnd).toBeLessThan(speechSpans[0]![1] + 1.5 * RATE)
    // The silence window stops before the second sentence starts; the last holds it whole.
    expect(quiet.startSample + quiet.samples.length).toBeLessThanOrEqual(speechSpans[1]![0])
    expect(last.startSample).toBeLessThanOrEqual(speechSpans[1]![0])
    expect(Buffer.concat(windows.map((window) => pcm16FromInt16(window.samples))).equals(pcm)).toBe(true)
  })
})
