import { connect } from 'node:net'

/** An HTTP answer as read off the socket: nothing parsed for us, so nothing hidden. */
export interface RawAnswer {
  status: number
  /** Header names in lower case; repeated headers joined with ", ". */
  headers: Record<string, string>
  body: string
}

/**
 * Sends bytes exactly as given to host:port over a plain TCP socket and reads until the server
 * closes it (send `Connection: close`, or bytes the server refuses). For what an HTTP client
 * will not send: no Host, a forged Host, oversized headers, broken framing.
 */
export function rawRequest(port: number, bytes: string | Buffer, host = '127.0.0.1'): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host })
    const chunks: Buffer[] = []
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    // The server may close while we still write (it refused the headers): that is an answer too.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error)
    })
    socket.on('close', () => {
      try {
        resolve(parseAnswer(Buffer.concat(chunks)))
      } catch (error) {
        reject(error)
      }
    })
    socket.write(bytes)
  })
}

function parseAnswer(bytes: Buffer): RawAnswer {
  const text = bytes.toString('utf8')
  const end = text.indexOf('\r\n\r\n')
  if (end === -1) throw new Error(`No complete HTTP answer: ${JSON.stringify(text.slice(0, 200))}`)
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
  }
  return { status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) }
}

/** A slow client's answer, and when the server closed the connection on it. */
export interface DripAnswer extends RawAnswer {
  /** From the first byte sent to the server's close. */
  closedAfterMs: number
  /** When the answer's first byte arrived, from the first byte sent. */
  answeredAfterMs: number
}

/**
 * A slow-loris client: sends `head` (the request line, headers and the start of a body) at once,
 * then one `piece` every `everyMs` (none with `everyMs: 0`: silence), never ending the body, and
 * reads whatever the server answers until it closes the socket.
 */
export function dripRequest(port: number, head: string, options: { piece: string; everyMs: number }): Promise<DripAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' })
    const chunks: Buffer[] = []
    const startedAt = performance.now()
    let answeredAfterMs = -1
    const drip = options.everyMs > 0 ? setInterval(() => socket.write(options.piece), options.everyMs) : undefined
    socket.on('data', (chunk: Buffer) => {
      if (answeredAfterMs < 0) answeredAfterMs = performance.now() - startedAt
      chunks.push(chunk)
    })
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') reject(error)
    })
    socket.on('close', () => {
      clearInterval(drip)
      try {
        resolve({ ...parseAnswer(Buffer.concat(chunks)), closedAfterMs: performance.now() - startedAt, answeredAfterMs })
      } catch (error) {
        reject(error)
      }
    })
    socket.write(head)
  })
}

/** A GET with the given Host header line (or none, for `null`), closing the connection after. */
export function getWithHost(port: number, path: string, host: string | null, extraHeaders = ''): Promise<RawAnswer> {
  const hostLine = host === null ? '' : `Host: ${host}\r\n`
  return rawRequest(port, `GET ${path} HTTP/1.1\r\n${hostLine}${extraHeaders}Connection: close\r\n\r\n`)
}
