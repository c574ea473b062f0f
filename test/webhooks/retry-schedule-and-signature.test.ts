import { describe, expect, it } from 'vitest'
import { DEFAULT_RETRY_DELAYS_MS, retryDelayMs } from '../../src/webhooks/retry-schedule'
import { generateSigningSecret, signingKeyOf, signWebhook, verifyWebhookSignature } from '../../src/webhooks/webhook-signature'

describe('the retry schedule', () => {
  it('makes about 8 tries over a day, the first retry within 5 s, growing each time', () => {
    expect(DEFAULT_RETRY_DELAYS_MS.length + 1).toBe(8)
    const total = DEFAULT_RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0)
    expect(total / 3_600_000).toBeGreaterThan(20)
    expect(total / 3_600_000).toBeLessThan(30)
    for (let index = 1; index < DEFAULT_RETRY_DELAYS_MS.length; index += 1) {
      expect(DEFAULT_RETRY_DELAYS_MS[index]).toBe(DEFAULT_RETRY_DELAYS_MS[index - 1]! * 5)
    }
  })

  it('jitters each wait down by at most a fifth, and ends after the last', () => {
    for (const random of [0, 0.5, 0.999999]) {
      const first = retryDelayMs(1, DEFAULT_RETRY_DELAYS_MS, () => random)!
      expect(first).toBeLessThanOrEqual(5_000)
      expect(first).toBeGreaterThanOrEqual(4_000)
    }
    expect(retryDelayMs(3, DEFAULT_RETRY_DELAYS_MS, () => 0.5)).toBe(112_500)
    expect(retryDelayMs(7, DEFAULT_RETRY_DELAYS_MS, () => 0)).toBe(78_125_000)
    expect(retryDelayMs(8, DEFAULT_RETRY_DELAYS_MS, () => 0)).toBeUndefined()
    expect(retryDelayMs(1, [], () => 0)).toBeUndefined()
  })
})

describe('webhook signatures', () => {
  it('matches the Standard Webhooks reference example', () => {
    // The example of the Standard Webhooks specification (standardwebhooks.com).
    const key = signingKeyOf('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw')!
    expect(signWebhook(key, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe(
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    )
  })

  it('verifies what it signs, and nothing else', () => {
    const key = signingKeyOf(generateSigningSecret())!
    const signature = signWebhook(key, 'msg_1', 1700000000, '{"a":1}')
    expect(verifyWebhookSignature(key, 'msg_1', 1700000000, '{"a":1}', `v1,bogus ${signature}`)).toBe(true)
    expect(verifyWebhookSignature(key, 'msg_1', 1700000001, '{"a":1}', signature)).toBe(false)
    expect(verifyWebhookSignature(key, 'msg_1', 1700000000, '{"a":2}', signature)).toBe(false)
  })

  it('accepts only whsec_ secrets of 16 to 64 bytes', () => {
    expect(signingKeyOf(generateSigningSecret())?.length).toBe(32)
    for (const bad of [
      '',
      'whsec_',
      'secret',
      'whsec_not base64!',
      `whsec_${Buffer.alloc(8).toString('base64')}`,
      `whsec_${Buffer.alloc(65).toString('base64')}`,
    ]) {
      expect(signingKeyOf(bad), bad).toBeUndefined()
    }
  })
})
