import { describe, expect, it } from 'vitest'
import { SpeechQueue } from '../../../src/engines/tts/speech-queue'
import { speechSegments } from '../../../src/engines/tts/speech-segments'
import { speechWorkersFor } from '../../../src/engines/tts/tts-engine'

describe('the speech queue', () => {
  it('serves every live item before any batch item, batch items in arrival order', () => {
    const queue = new SpeechQueue<string>()
    queue.push('job 1', 'batch', 'job 1')
    queue.push('job 2', 'batch', 'job 2')
    queue.push('call', 'live', 'call')
    queue.push('job 3', 'batch', 'job 3')
    queue.push('realtime', 'live', 'realtime')

    expect(queue.size).toBe(5)
    expect(queue.drain()).toEqual(['call', 'realtime', 'job 1', 'job 2', 'job 3'])
    expect(queue.size).toBe(0)
    expect(queue.shift()).toBeUndefined()
  })

  it('takes live flows in turn: one call with five sentences queued does not hold back another', () => {
    const queue = new SpeechQueue<string>()
    for (let sentence = 1; sentence <= 5; sentence += 1) queue.push(`A${sentence}`, 'live', 'call A')
    queue.push('B1', 'live', 'call B')
    queue.push('B2', 'live', 'call B')
    queue.push('C1', 'live', 'call C')

    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual(['A1', 'B1', 'C1'])
    // A flow that comes back after emptying waits behind those still waiting.
    queue.push('C2', 'live', 'call C')
    expect(queue.drain()).toEqual(['A2', 'B2', 'C2', 'A3', 'A4', 'A5'])
  })

  it('removes an item wherever it waits (an abort frees its place) and only once', () => {
    const queue = new SpeechQueue<string>()
    queue.push('A1', 'live', 'A')
    queue.push('A2', 'live', 'A')
    queue.push('B1', 'live', 'B')
    queue.push('job', 'batch', 'job')

    expect(queue.remove('A1')).toBe(true)
    expect(queue.remove('A1')).toBe(false)
    expect(queue.remove('B1')).toBe(true)
    expect(queue.remove('job')).toBe(true)
    expect(queue.remove('never queued')).toBe(false)
    expect(queue.size).toBe(1)
    expect(queue.drain()).toEqual(['A2'])
  })

  it('keeps order and fairness with 50 calls of 4 sentences each behind 200 jobs', () => {
    const queue = new SpeechQueue<string>()
    for (let job = 0; job < 200; job += 1) queue.push(`job ${job}`, 'batch', `job ${job}`)
    for (let sentence = 0; sentence < 4; sentence += 1) {
      for (let call = 0; call < 50; call += 1) queue.push(`call ${call} sentence ${sentence}`, 'live', `call ${call}`)
    }
    const order = queue.drain()

    expect(order).toHaveLength(400)
    // Every call's first sentence comes before any call's second, and so on.
    order.slice(0, 200).forEach((item, index) => expect(item).toBe(`call ${index % 50} sentence ${Math.floor(index / 50)}`))
    expect(order.slice(200)).toEqual(Array.from({ length: 200 }, (_, job) => `job ${job}`))
  })
})

describe('speech segments', () => {
  it('keeps a short text whole and cuts a long one at sentence ends, every word kept in order', () => {
    expect(speechSegments('Hello there. How are you?', 'en', 300)).toEqual(['Hello there. How are you?'])
    const sentence = 'This is a sentence of a fair length for a voice to say. '
    const text = sentence.repeat(40)
    const segments = speechSegments(text, 'en', 300)

    expect(segments.length).toBeGreaterThan(5)
    for (const segment of segments) {
      expect(segment.length).toBeLessThanOrEqual(300)
      expect(segment.trimEnd().endsWith('.')).toBe(true)
    }
    expect(segments.join('')).toBe(text)
  })

  it('cuts a sentence longer than a segment at a space, and Arabic at its own question mark', () => {
    const endless = 'word '.repeat(200).trim()
    const segments = speechSegments(endless, 'en', 300)
    for (const segment of segments) expect(segment.length).toBeLessThanOrEqual(300)
    expect(segments.join('')).toBe(endless)
    expect(segments.every((segment) => !/\Sword|wor$/.test(segment))).toBe(true)

    const arabic = 'هل يمكنك أن تقول لي رقم الطلب؟ '.repeat(20)
    const arabicSegments = speechSegments(arabic, 'ar', 100)
    expect(arabicSegments.join('')).toBe(arabic)
    for (const segment of arabicSegments) expect(segment.trim().endsWith('؟')).toBe(true)
  })
})

describe('the pool size', () => {
  it('follows the cores between 2 and 4, unless VOICEDESK_TTS_WORKERS says otherwise', () => {
    expect(speechWorkersFor({}, 1)).toBe(2)
    expect(speechWorkersFor({}, 2)).toBe(2)
    expect(speechWorkersFor({}, 3)).toBe(3)
    expect(speechWorkersFor({}, 64)).toBe(4)
    expect(speechWorkersFor({ VOICEDESK_TTS_WORKERS: '1' }, 8)).toBe(1)
    expect(speechWorkersFor({ VOICEDESK_TTS_WORKERS: ' 12 ' }, 2)).toBe(12)
    expect(speechWorkersFor({ VOICEDESK_TTS_WORKERS: '' }, 3)).toBe(3)
    for (const bad of ['0', '33', '2.5', 'many', '-1']) {
      expect(() => speechWorkersFor({ VOICEDESK_TTS_WORKERS: bad }, 2)).toThrow(
        `VOICEDESK_TTS_WORKERS must be a whole number from 1 to 32, got "${bad}"`,
      )
    }
  })
})
