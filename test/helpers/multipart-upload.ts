import { request as httpRequest } from 'node:http'
import { Readable } from 'node:stream'

/** Free of vitest, so bench/ uses it too. */

export interface MultipartFile {
  /** The file name the client gives. */
  name: string
  type: string
  /** Its bytes as they are read or made (a file's read stream, a generator): never held whole. */
  body: AsyncIterable<Buffer>
}

const BOUNDARY = 'voicedesk-streamed-upload-boundary'

async function* multipartBody(fields: Record<string, string>, file: MultipartFile): AsyncGenerator<Buffer> {
  for (const [name, value] of Object.entries(fields))
    yield Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
  yield Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
  )
  for await (const piece of file.body) yield piece
  yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`)
}

/**
 * A multipart/form-data POST over a real socket, its body streamed (chunked) as the file is
 * read: what curl -F does with a large file. The text fields come before the file.
 */
export function postMultipart(
  url: string,
  options: { headers: Record<string, string>; fields: Record<string, string>; file: MultipartFile },
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { ...options.headers, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }))
        response.on('error', reject)
      },
    )
    request.on('error', reject)
    Readable.from(multipartBody(options.fields, options.file)).pipe(request)
  })
}
