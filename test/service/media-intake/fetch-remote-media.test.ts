import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { readdirSync } from 'node:fs'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { afterEach, describe, expect, it } from 'vitest'
import { fetchRemoteMedia, type FetchRemoteMediaOptions } from '../../../src/service/media-intake/fetch-remote-media'
import { MediaFetchError } from '../../../src/service/media-intake/media-fetch-error'
import { FileMediaStore } from '../../../src/store/file-media-store'
import { WebhookAddressPolicy } from '../../../src/webhooks/webhook-address-policy'
import type { Lookup } from '../../../src/webhooks/guarded-connector'
import { makeTempDir } from '../../helpers/temp-dir'

/*
 * The "remote site" is a real HTTP server on 127.0.0.1 that serves media, pages, redirects
 * and misbehaviour; the media lands in a real media folder.
 */

const CLIP = Buffer.alloc(300_000, 7)
const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

async function remoteSite(): Promise<{ base: string; requests: IncomingMessage[] }> {
  const requests: IncomingMessage[] = []
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    requests.push(request)
    const url = new URL(request.url ?? '/', 'http://site')
    const redirect = /^\/hop\/(\d+)$/.exec(url.pathname)
    if (redirect) {
      const left = Number(redirect[1])
      response.writeHead(left === 0 ? 307 : 302, { location: left === 0 ? '/clip.mp3' : `/hop/${left - 1}` }).end()
      return
    }
    switch (url.pathname) {
      case '/clip.mp3':
        return void response.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': CLIP.length }).end(CLIP)
      case '/untyped':
        // No Content-Type, no Content-Length (chunked): taken as media.
        response.writeHead(200)
        return void Readable.from([CLIP.subarray(0, 1000), CLIP.subarray(1000)]).pipe(response)
      case '/video.mp4':
        return void response.writeHead(200, { 'content-type': 'Video/MP4; codecs="avc1"' }).end(CLIP.subarray(0, 5000))
      case '/page':
        return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html>Sign in</html>')
      case '/notes':
        return void response.writeHead(200, { 'content-type': 'text/plain' }).end('notes')
      case '/to-metadata':
        return void response.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end()
      case '/to-metadata-name':
        return void response.writeHead(302, { location: `http://metadata.test:${(server.address() as AddressInfo).port}/clip.mp3` }).end()
      case '/to-ftp':
        return void response.writeHead(301, { location: 'ftp://files.example/clip.mp3' }).end()
      case '/declared-huge':
        // Says 10 GB, then sends slowly: the fetch must refuse on the header alone.
        response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': String(10 * 1024 ** 3) })
        return void response.write(Buffer.alloc(1000))
      case '/endless': {
        // Chunked audio that never ends: the fetch must stop at the limit.
        response.writeHead(200, { 'content-type': 'audio/ogg' })
        const piece = Buffer.alloc(64 * 1024, 1)
        const pump = () => {
          while (!response.destroyed && response.write(piece));
          if (!response.destroyed) response.once('drain', pump)
        }
        return pump()
      }
      case '/drip':
      case '/paced': {
        // /drip: one byte every 50 ms, for ever (never silent for long, never done); /paced: 30 KB
        // every 50 ms, 10 times (about 600 KB/s, a slow but honest server).
        const drip = url.pathname === '/drip'
        response.writeHead(200, { 'content-type': 'audio/mpeg' })
        let sent = 0
        const timer = setInterval(() => {
          if (!drip && sent === 10) return void response.end()
          response.write(drip ? CLIP.subarray(0, 1) : CLIP.subarray(0, 30_000))
          sent += 1
        }, 50)
        response.on('close', () => clearInterval(timer))
        return
      }
      case '/silent':
        return // never answers
      case '/stalls':
        response.writeHead(200, { 'content-type': 'audio/wav', 'content-length': '100000' })
        return void response.write(Buffer.alloc(1000))
      case '/private':
        if (request.headers.authorization !== `Basic ${Buffer.from('ann:pa ss').toString('base64')}`)
          return void response.writeHead(401).end()
        return void response.writeHead(200, { 'content-type': 'audio/wav' }).end(CLIP.subarray(0, 10))
      default:
        return void response.writeHead(404, { 'content-type': 'text/plain' }).end('not here')
    }
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}

/** Resolves metadata.test to the cloud metadata address, as a rebinding DNS would; other names as usual. */
const metadataLookup: Lookup = (hostname, options, callback) => {
  if (hostname !== 'metadata.test') return callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), [])
  if (options.all) return callback(null, [{ address: '169.254.169.254', family: 4 }])
  callback(null, '169.254.169.254', 4)
}

function setUp(overrides: Partial<FetchRemoteMediaOptions> = {}) {
  const directory = makeTempDir()
  const media = new FileMediaStore(directory)
  const options: FetchRemoteMediaOptions = {
    maxBytes: 1024 * 1024,
    timeoutMs: 2000,
    maxRedirects: 5,
    addressPolicy: new WebhookAddressPolicy(),
    lookup: metadataLookup,
    ...overrides,
  }
  const fetchInto = (url: string, name = 'fetched.mp3') => fetchRemoteMedia(url, { media, name }, options)
  const refusal = async (url: string): Promise<MediaFetchError> => {
    const error = await fetchInto(url).then(
      () => undefined,
      (failure: unknown) => failure,
    )
    expect(error).toBeInstanceOf(MediaFetchError)
    // Nothing half-fetched is kept.
    expect(readdirSync(directory)).toEqual([])
    return error as MediaFetchError
  }
  return { directory, media, fetchInto, refusal }
}

describe('fetchRemoteMedia', () => {
  it('stores the media of a URL, with or without a media type', async () => {
    const { base } = await remoteSite()
    const { media, fetchInto } = setUp()
    expect(await fetchInto(`${base}/clip.mp3`)).toEqual({ size: CLIP.length, contentType: 'audio/mpeg', from: 'remote' })
    expect((await buffer((await media.open('fetched.mp3'))!.stream)).equals(CLIP)).toBe(true)
    expect(await fetchInto(`${base}/untyped`, 'untyped.bin')).toEqual({ size: CLIP.length, contentType: null, from: 'remote' })
    expect(await fetchInto(`${base}/video.mp4`, 'video.mp4')).toMatchObject({ size: 5000, contentType: 'video/mp4' })
  })

  it('follows a chain of redirects up to the limit, and refuses one more', async () => {
    const { base, requests } = await remoteSite()
    const { fetchInto } = setUp()
    const { refusal } = setUp()
    // hop/4 → 3 → 2 → 1 → 0 → clip.mp3: five redirects.
    expect(await fetchInto(`${base}/hop/4`)).toMatchObject({ size: CLIP.length })
    expect(requests.map((request) => request.url)).toEqual(['/hop/4', '/hop/3', '/hop/2', '/hop/1', '/hop/0', '/clip.mp3'])
    const tooMany = await setUp().refusal(`${base}/hop/5`)
    expect(tooMany).toMatchObject({ code: 'MEDIA_FETCH_FAILED' })
    expect(tooMany.message).toBe(`${base}/hop/5 redirected more than 5 times`)
    expect((await refusal(`${base}/to-ftp`)).message).toContain('only http and https are fetched')
  })

  it('refuses a redirect to a link-local address, by IP and by a name that resolves to one', async () => {
    const { base } = await remoteSite()
    const { refusal } = setUp()
    const byAddress = await refusal(`${base}/to-metadata`)
    expect(byAddress.message).toMatch(/169\.254\.169\.254 is a link-local address/)
    const byName = await refusal(`${base}/to-metadata-name`)
    expect(byName.message).toMatch(/metadata\.test.*169\.254\.169\.254.*link-local/)
    // The operator's allow-list opens it (here the name then resolves to nothing that answers).
    const allowed = await setUp({ addressPolicy: new WebhookAddressPolicy(['169.254.169.254']), timeoutMs: 300 }).refusal(
      'http://169.254.169.254/latest/',
    )
    expect(allowed.message).not.toMatch(/link-local/)
    expect((await refusal('http://0.0.0.0/clip.mp3')).message).toMatch(/unspecified address/)
  })

  it('refuses what is not media, naming its type', async () => {
    const { base } = await remoteSite()
    const { refusal } = setUp()
    expect((await refusal(`${base}/page`)).message).toBe(`${base}/page answered a web page (text/html), not media (audio or video)`)
    expect((await refusal(`${base}/notes`)).message).toBe(`${base}/notes answered text/plain, not media (audio or video)`)
  })

  it('reports HTTP errors with their status, without the URL credentials or query', async () => {
    const { base } = await remoteSite()
    const { refusal } = setUp()
    const { fetchInto } = setUp()
    const secretUrl = base.replace('http://', 'http://ann:hunter2@') + '/missing?signature=s3cret&token=t0ken'
    const missing = await refusal(secretUrl)
    expect(missing).toMatchObject({ code: 'MEDIA_FETCH_FAILED', status: 404 })
    expect(missing.message).toBe(`${base}/missing answered HTTP 404 (Not Found)`)
    expect(missing.message).not.toMatch(/ann|hunter2|s3cret|t0ken|signature/)
    // Credentials in the URL are sent as Basic auth.
    expect(await fetchInto(base.replace('http://', 'http://ann:pa%20ss@') + '/private')).toMatchObject({ size: 10 })
    expect((await refusal(`${base}/private`)).message).toContain('401')
  })

  it('refuses a Content-Length over the limit before reading, and stops a body that runs past it', async () => {
    const { base } = await remoteSite()
    const { refusal } = setUp({ maxBytes: 1024 * 1024 })
    const declared = await refusal(`${base}/declared-huge`)
    expect(declared).toMatchObject({ code: 'MEDIA_TOO_LARGE' })
    expect(declared.message).toBe(`${base}/declared-huge holds 10 GiB, more than the limit of 1 MiB`)
    const endless = await refusal(`${base}/endless`)
    expect(endless).toMatchObject({ code: 'MEDIA_TOO_LARGE' })
    expect(endless.message).toBe(`${base}/endless sent more than the limit of 1 MiB; nothing was kept`)
  })

  it('gives up on a server that does not answer, or stops sending', async () => {
    const { base } = await remoteSite()
    const { refusal } = setUp({ timeoutMs: 300 })
    expect((await refusal(`${base}/silent`)).message).toBe(`${base}/silent did not answer within 0.3 s`)
    expect((await refusal(`${base}/stalls`)).message).toBe(`${base}/stalls stopped sending the media for 0.3 s; nothing was kept`)
    expect((await refusal('http://127.0.0.1:1/clip.mp3')).message).toMatch(/connection was refused \(ECONNREFUSED\)/)
    expect((await refusal('not a url')).message).toBe('The media URL is not a valid URL')
  })

  it('cuts a body that drips below the least rate, and a fetch past its deadline, keeping nothing; a slow but steady body passes', async () => {
    const { base } = await remoteSite()
    const minRate = { bytesPerSecond: 100, windowMs: 300 }
    const slow = await setUp({ minRate }).refusal(`${base}/drip`)
    expect(slow).toMatchObject({ code: 'MEDIA_FETCH_FAILED', transient: false })
    expect(slow.message).toMatch(
      new RegExp(
        `^${base}/drip sent the media too slowly \\(\\d bytes? in 0\\.3 s; at least 100 bytes per second are needed\\); nothing was kept$`,
      ),
    )
    const late = await setUp({ deadlineMs: 400 }).refusal(`${base}/drip`)
    expect(late).toMatchObject({
      code: 'MEDIA_FETCH_FAILED',
      transient: false,
      message: `${base}/drip did not send the whole media within 0.4 s; nothing was kept`,
    })
    // The deadline counts from the start: a server that never answers is cut by it too, before its silence limit.
    expect((await setUp({ deadlineMs: 300, timeoutMs: 5000 }).refusal(`${base}/silent`)).message).toBe(
      `${base}/silent did not send the whole media within 0.3 s; nothing was kept`,
    )
    const { fetchInto } = setUp({ minRate: { bytesPerSecond: 100_000, windowMs: 100 }, deadlineMs: 5000 })
    expect(await fetchInto(`${base}/paced`)).toMatchObject({ size: 300_000, contentType: 'audio/mpeg' })
  })

  it('cuts 20 dripping fetches at once, each with its own error, and keeps nothing of any', async () => {
    const { base } = await remoteSite()
    const { directory, media } = setUp()
    const options: FetchRemoteMediaOptions = {
      maxBytes: 1024 * 1024,
      timeoutMs: 2000,
      addressPolicy: new WebhookAddressPolicy(),
      minRate: { bytesPerSecond: 100, windowMs: 300 },
    }
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, index) => fetchRemoteMedia(`${base}/drip`, { media, name: `drip-${index}.mp3` }, options)),
    )
    for (const outcome of outcomes) {
      expect(outcome.status).toBe('rejected')
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(MediaFetchError)
      expect(((outcome as PromiseRejectedResult).reason as Error).message).toContain('sent the media too slowly')
    }
    expect(readdirSync(directory)).toEqual([])
  })

  it("reads this service's own /media URL from the media store, without HTTP", async () => {
    const own = new FileMediaStore(makeTempDir())
    await own.put('abcdefghijklmnopqrstuvwxyz012345.wav', CLIP)
    // Nothing listens at this base URL: an HTTP request there would fail.
    const baseUrl = 'http://127.0.0.1:1'
    const { media, fetchInto } = setUp({ own: { baseUrl, media: own } })
    expect(await fetchInto(`${baseUrl}/media/abcdefghijklmnopqrstuvwxyz012345.wav`, 'copy.wav')).toEqual({
      size: CLIP.length,
      contentType: null,
      from: 'own',
    })
    expect((await buffer((await media.open('copy.wav'))!.stream)).equals(CLIP)).toBe(true)
    // localhost is the same machine.
    expect(await fetchInto('http://localhost:1/media/abcdefghijklmnopqrstuvwxyz012345.wav?x=1', 'again.wav')).toMatchObject({ from: 'own' })
    const unknown = await setUp({ own: { baseUrl, media: own } }).refusal(`${baseUrl}/media/unknown.wav`)
    expect(unknown).toMatchObject({ code: 'MEDIA_FETCH_FAILED', status: 404, message: 'This service has no media named unknown.wav' })
    const small = await setUp({ own: { baseUrl, media: own }, maxBytes: 1000 }).refusal(
      `${baseUrl}/media/abcdefghijklmnopqrstuvwxyz012345.wav`,
    )
    expect(small).toMatchObject({ code: 'MEDIA_TOO_LARGE' })
  })

  it("passes the caller's abort through as it is", async () => {
    const { base } = await remoteSite()
    const controller = new AbortController()
    const { fetchInto, directory } = setUp({ signal: controller.signal, timeoutMs: 5000 })
    setTimeout(() => controller.abort(new Error('the job stopped')), 100)
    await expect(fetchInto(`${base}/stalls`)).rejects.toThrow('the job stopped')
    expect(readdirSync(directory)).toEqual([])
  })
})
