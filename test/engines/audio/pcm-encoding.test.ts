import { describe, expect, it } from 'vitest'
import {
  chunkPcm16,
  float32FromBase64,
  float32FromInt16,
  float32ToBase64,
  int16FromBase64,
  int16FromFloat32,
  int16ToBase64,
  pcm16FromInt16,
} from '../../../src/engines/audio/pcm-encoding'
import { parseWavPcm16Mono, writeWavPcm16Mono } from '../../../src/engines/audio/wav-file'

describe('PCM encodings', () => {
  it('decodes base64 Float32 LE as the web SDK sends it, and back', () => {
    const bytes = Buffer.alloc(12)
    bytes.writeFloatLE(0.5, 0)
    bytes.writeFloatLE(-0.25, 4)
    bytes.writeFloatLE(1, 8)
    const samples = float32FromBase64(bytes.toString('base64'))
    expect([...samples]).toEqual([0.5, -0.25, 1])
    expect(float32ToBase64(samples)).toBe(bytes.toString('base64'))
    expect(() => float32FromBase64(Buffer.alloc(6).toString('base64'))).toThrow(/multiple of 4 bytes, got 6/)
  })

  it('encodes Int16 as base64 PCM16 LE of an even length, and back', () => {
    const samples = Int16Array.from([0, 1, -1, 32767, -32768])
    const base64 = int16ToBase64(samples)
    const bytes = Buffer.from(base64, 'base64')
    expect(bytes.byteLength).toBe(10)
    expect(bytes.readInt16LE(2)).toBe(1)
    expect(bytes.readInt16LE(8)).toBe(-32768)
    expect(int16FromBase64(base64)).toEqual(samples)
    expect(() => int16FromBase64(Buffer.alloc(3).toString('base64'))).toThrow(/even number of bytes, got 3/)
  })

  it('scales floats to Int16 with clipping, and back', () => {
    expect([...int16FromFloat32(Float32Array.from([0, 0.5, -0.5, 1.5, -1.5]))]).toEqual([0, 16384, -16384, 32767, -32768])
    expect([...float32FromInt16(Int16Array.from([16384, -32768]))]).toEqual([0.5, -1])
  })

  it('chunks PCM16 into frames of N ms, the last one shorter', () => {
    const pcm = pcm16FromInt16(new Int16Array(16_000 * 0.05 + 10)) // 50 ms and 10 samples at 16 kHz
    const frames = chunkPcm16(pcm, 16_000, 20)
    expect(frames.map((frame) => frame.byteLength)).toEqual([640, 640, 320 + 20])
    expect(() => chunkPcm16(pcm, 16_000, 0)).toThrow(/positive whole number/)
  })

  it('writes a 16 kHz mono PCM16 WAV and reads it back; refuses what it cannot read', () => {
    const samples = Int16Array.from({ length: 480 }, (_, index) => (index * 97) % 2000)
    const wav = writeWavPcm16Mono(samples)
    expect(wav.byteLength).toBe(44 + 960)
    expect(wav.readUInt32LE(24)).toBe(16_000)
    expect(parseWavPcm16Mono(wav)).toEqual({ samples, sampleRate: 16_000 })
    expect(() => parseWavPcm16Mono(Buffer.from('hello'))).toThrow(/shorter than a header/)
    const stereo = Buffer.from(wav)
    stereo.writeUInt16LE(2, 22)
    expect(() => parseWavPcm16Mono(stereo)).toThrow(/2 channel\(s\)/)
  })
})
