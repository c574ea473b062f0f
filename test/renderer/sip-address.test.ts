// How the app writes a number's SIP address from the live line: the number as registered (E.164,
// with its +), the line's host (an IPv6 one in brackets, as SIP URIs need) and its port.
import { describe, expect, it } from 'vitest'
import { sipAddressOf, sipHostPart } from '../../src/renderer/src/lib/sip-address'

describe("a number's SIP address", () => {
  it('is sip:<number>@<host>:<port> on the running line', () => {
    expect(sipAddressOf('+14155550100', { host: '127.0.0.1', port: 5060 })).toBe('sip:+14155550100@127.0.0.1:5060')
    expect(sipAddressOf('+971501234567', { host: '127.0.0.2', port: 40123 })).toBe('sip:+971501234567@127.0.0.2:40123')
  })

  it('puts an IPv6 host in brackets', () => {
    expect(sipHostPart('::1')).toBe('[::1]')
    expect(sipAddressOf('+14155550100', { host: '::1', port: 5080 })).toBe('sip:+14155550100@[::1]:5080')
  })
})
