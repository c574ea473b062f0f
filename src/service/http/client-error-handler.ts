import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import { errorEnvelope, type ErrorCode } from '../../shared/api/errors'

/** What Node's HTTP parser could not read, in people's words (llhttp's error codes). */
const PARSE_ERRORS: Record<string, string> = {
  HPE_INVALID_METHOD: 'the method is not a valid HTTP method',
  HPE_INVALID_URL: 'the request target is malformed',
  HPE_INVALID_VERSION: 'the HTTP version is malformed',
  HPE_INVALID_CONSTANT: 'the request line is malformed',
  HPE_CR_EXPECTED: 'a line does not end with CRLF',
  HPE_LF_EXPECTED: 'a line does not end with CRLF',
  HPE_INVALID_HEADER_TOKEN: 'a header name or value holds an invalid character',
  HPE_INVALID_CONTENT_LENGTH: 'Content-Length is not a number',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length is given twice, or with Transfer-Encoding',
  HPE_INVALID_TRANSFER_ENCODING: 'Transfer-Encoding is invalid',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size of the body is malformed',
}

function answerOf(error: NodeJS.ErrnoException): { status: number; code: ErrorCode; message: string } {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large (16 KiB at most, request line included)' }
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request did not arrive in time' }
  }
  const reason = (error.code && PARSE_ERRORS[error.code]) ?? 'it could not be parsed'
  return { status: 400, code: 'VALIDATION_ERROR', message: `Malformed HTTP request: ${reason}${error.code ? ` (${error.code})` : ''}` }
}

/**
 * Fastify's `clientErrorHandler`: requests Node's parser refuses before any route runs (headers
 * too large, bad framing, a malformed request line) are answered in the contract's envelope
 * rather than Node's bare text, and the connection is closed (what follows cannot be trusted).
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has no one to answer; a response already begun cannot be replaced.
  const pending = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable || pending?.headersSent) {
    socket.destroy()
    return
  }
  const { status, code, message } = answerOf(error)
  const body = JSON.stringify(errorEnvelope(code, message))
  // Closed once the answer is flushed, whatever the client still sends.
  socket.once('finish', () => socket.destroy())
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  )
}
