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
      const text = Buffer.concat(chunks).toString('utf8')
      const end = text.indexOf('\r\n\r\n')
      if (end === -1) return reject(new Error(`No complete HTTP answer: ${JSON.stringify(text.slice(0, 200))}`))
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        const name = line.slice(0, colon).trim().toLowerCase()
        const value = line.slice(colon + 1).trim()
        headers[name] = headers[name] === undefined ? value : `${headers[name]}, ${value}`
      }
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4) })
    })
    socket.write(bytes)
  })
}

/** A GET with the given Host header line (or none, for `null`), closing the connection after. */
export function getWithHost(port: number, path: string, host: string | null, extraHeaders = ''): Promise<RawAnswer> {
  const hostLine = host === null ? '' : `Host: ${host}\r\n`
  return rawRequest(port, `GET ${path} HTTP/1.1\r\n${hostLine}${extraHeaders}Connection: close\r\n\r\n`)
}
