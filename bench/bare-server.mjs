// The ceiling for the /v1 benchmark: a bare node:http server answering the exact bytes
// VoiceDesk answers, with no routing, auth, database or validation.
import { createServer } from 'node:http'

const body = Buffer.from(process.env.BARE_BODY ?? '{}')
const server = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length })
  response.end(body)
})
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening on http://127.0.0.1:${server.address().port}\n`)
})
process.on('SIGTERM', () => server.close(() => process.exit(0)))
