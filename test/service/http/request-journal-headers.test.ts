/**
 * The request journal keeps each request's headers exactly as sent (names, order, values,
 * secrets redacted) while it hands the store one shared set for requests that send the same
 * headers: many header sets at once, more of them than it remembers, some differing only in
 * order or in one value. A real service on 127.0.0.1 (SQLite, and PostgreSQL in the `postgres`
 * project: the journal is its own SQLite file in both).
 */
import { request as httpRequest } from 'node:http'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { makeTempDir } from '../../helpers/temp-dir'
import { startTestService, type TestService } from '../../helpers/test-service'
import type { JournalEntry } from '../../../src/store/request-journal'

let service: TestService | undefined

afterEach(async () => {
  await service?.runtime.stop()
  service = undefined
})

/** Sends a GET with exactly these header lines, in this order, after Host (node:http sends lines given as a list as they are). */
function send(url: string, headers: [string, string][]): Promise<number> {
  return new Promise((resolve, reject) => {
    const lines = [['host', new URL(url).host], ...headers].flat()
    const request = httpRequest(url, { headers: lines, agent: false }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.statusCode ?? 0))
    })
    request.on('error', reject)
    request.end()
  })
}

/** The header lines each variant sends besides the key: twelve, more than the journal remembers, some alike but for order or one value. */
function variantHeaders(variant: number): [string, string][] {
  const trace: [string, string] = ['x-trace', `v${variant % 6}`]
  const accept: [string, string] = ['accept', 'application/json']
  // Variants 6–11 send the same lines as 0–5, in another order.
  return variant < 6 ? [trace, accept] : [accept, trace]
}

describe('the request journal’s headers', () => {
  it('keeps every request’s headers as sent when many requests share, reorder or vary them, the key redacted', async () => {
    const dataDir = makeTempDir()
    service = await startTestService({ port: 0, dataDir, journal: { file: join(dataDir, 'journal.db') } })
    await service.runtime.start()
    const baseUrl = service.runtime.context.baseUrl()
    const key = service.key
    const rounds = 3
    const sent: { variant: number; round: number; secretHeader: boolean }[] = []
    const sendAll = Array.from({ length: rounds * 12 }, (_, index) => {
      const variant = index % 12
      const round = Math.floor(index / 12)
      // Every third round also sends the key as X-Api-Key: the same lines but one, a secret one.
      const secretHeader = round === 2
      sent.push({ variant, round, secretHeader })
      const lines: [string, string][] = [
        ['authorization', `Token ${key}`],
        ...variantHeaders(variant),
        ['x-round', String(round)],
        ...(secretHeader ? ([['x-api-key', key]] as [string, string][]) : []),
      ]
      return send(`${baseUrl}/v1/voices?variant=${variant}&round=${round}`, lines)
    })
    const statuses = await Promise.all(sendAll)
    expect(new Set(statuses)).toEqual(new Set([200]))
    const headers = { authorization: `Token ${key}` }
    const list = (await (await fetch(`${baseUrl}/_voicedesk/requests?path=/v1/voices&take=100`, { headers })).json()) as {
      data: { requests: { id: number; query: string }[] }
    }
    expect(list.data.requests).toHaveLength(rounds * 12)
    for (const { id, query } of list.data.requests) {
      const entry = ((await (await fetch(`${baseUrl}/_voicedesk/requests/${id}`, { headers })).json()) as { data: JournalEntry }).data
      const parameters = new URLSearchParams(query)
      const variant = Number(parameters.get('variant'))
      const round = Number(parameters.get('round'))
      // The lines the client sent, in order, the key's redacted; Node's own (connection) after them.
      const expected = [
        ['host', new URL(baseUrl).host],
        ['authorization', '[REDACTED]'],
        ...variantHeaders(variant),
        ['x-round', String(round)],
        ...(round === 2 ? [['x-api-key', '[REDACTED]']] : []),
      ]
      const ours = entry.requestHeaders.filter(([name]) => name !== 'connection')
      expect(ours, `variant ${variant}, round ${round}`).toEqual(expected)
      expect(JSON.stringify(entry)).not.toContain(key)
    }
  })
})
