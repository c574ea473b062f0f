import { z } from 'zod'
import { ClientFrameSchema, ServerFrameSchema } from '../../shared/api/stream-frames'
import { IPC_STREAMS, BROWSER_STREAMS, type IpcStreamName } from '../../shared/ipc/streams'

/*
 * The AsyncAPI 3.0 document of the service's WebSockets (GET /v1/asyncapi.json), the companion
 * of the OpenAPI document: which sockets there are, how each is authenticated, and every frame
 * each side sends. Every payload is written from the zod schema the service validates or builds
 * that frame with, so the document cannot drift from the code. Schemas that carry a zod `id`
 * (TranscriptTurn, OutcomeShape, …) become components/schemas of that name, as in OpenAPI.
 */

type JsonObject = Record<string, unknown>
type FrameSchema = z.ZodObject

/** One side's frames of a socket: a discriminated union (each option a message) or a single schema. */
interface FrameSet {
  /** The property whose value names the frame (`event`, `type`). */
  discriminator?: string
  frames: readonly FrameSchema[]
  /** A message sent once before the frames (a stream's input), by name. */
  leading?: { name: string; schema: z.ZodType }
}

/** A WebSocket protocol, as the document describes it. */
export interface SocketProtocol {
  /** The channel's key and the stem of its message and schema names (camelCase). */
  name: string
  address: string
  title: string
  description: string
  parameters?: Record<string, { description: string; enum?: string[] }>
  /** The query string of the upgrade request (ws binding), as a zod object. */
  query?: z.ZodObject
  security: 'apiKeyQuery' | 'apiKeyHeaderOrQuery' | 'uiToken'
  /** What the client sends, and what the service sends. */
  client: FrameSet
  server: FrameSet
  /** Binary frames this socket carries besides its JSON frames (described, with no schema). */
  binary?: { client?: string; server?: string }
}

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1)
const camel = (text: string) => text.replace(/[^A-Za-z0-9]+([A-Za-z0-9])/g, (_match, letter: string) => letter.toUpperCase())

/** The name of one frame: the value of its discriminator (`tools_response` → ToolsResponse), or its set's only schema. */
function frameName(set: FrameSet, frame: FrameSchema): string {
  const key = set.discriminator
  const literal = key ? (frame.shape[key] as z.ZodLiteral | undefined) : undefined
  const value = literal?.def.type === 'literal' ? literal.def.values[0] : undefined
  return typeof value === 'string' ? capitalise(camel(value)) : 'Frame'
}

/** A side's messages in order: its leading message, then one per frame. */
function messagesOf(set: FrameSet): { name: string; schema: z.ZodType }[] {
  return [...(set.leading ? [set.leading] : []), ...set.frames.map((frame) => ({ name: frameName(set, frame), schema: frame }))]
}

const SDK_CALL: SocketProtocol = {
  name: 'callStream',
  address: '/stream/{jobId}',
  title: "A live call (the cloud API's web SDK socket)",
  description:
    'Opened by the web SDK after POST /v1/voice-agents/conversation-init, with that job id. JSON text frames, each with `event`. ' +
    'Every refusal (unknown key, origin, job) is an `info` frame with `code` and `message`, then a clean close (1000). ' +
    'Unknown client events are ignored; a frame that is not JSON, or a known event with bad fields, is answered with an `info` frame of code INVALID_FRAME.',
  parameters: { jobId: { description: 'The conversation job id from POST /v1/voice-agents/conversation-init.' } },
  query: z.object({
    api_key: z.string().meta({ description: 'An API key of the project (browsers send no headers on a WebSocket).' }),
    playback: z.enum(['realtime', 'unpaced']).optional().meta({
      description:
        'unpaced: each agent turn is sent whole as soon as it is made (a client that does not play the audio); realtime by default.',
    }),
  }),
  security: 'apiKeyQuery',
  client: { discriminator: 'event', frames: ClientFrameSchema.options },
  server: { discriminator: 'event', frames: ServerFrameSchema.options },
}

function operatorStream(name: IpcStreamName): SocketProtocol {
  const stream = IPC_STREAMS[name]
  return {
    name: camel(`operator ${name}`),
    address: BROWSER_STREAMS.path(name),
    title: `The operator UI's stream ${name} (browser mode)`,
    description:
      'Served with the operator UI in browser mode only (`voicedesk serve --ui`). The first text message is the input (the first message below), then JSON frames go each way, each with `type`. ' +
      'Every refusal (another origin, a wrong token, a bad input) is a `refused` frame, then a clean close (1000).',
    query: z.object({ token: z.string().meta({ description: 'The UI token of the link `voicedesk serve` printed.' }) }),
    security: 'uiToken',
    client: { discriminator: 'type', leading: { name: 'Input', schema: stream.input }, frames: stream.client.options },
    server: { discriminator: 'type', frames: stream.server.options },
  }
}

/** The sockets a service serves, in the order the document lists them: only those it was built with. */
export function socketProtocols(served: {
  calls: boolean
  operatorStreams: boolean
  others?: readonly SocketProtocol[]
}): SocketProtocol[] {
  return [
    ...(served.calls ? [SDK_CALL] : []),
    ...(served.others ?? []),
    ...(served.operatorStreams ? (Object.keys(IPC_STREAMS) as IpcStreamName[]).map(operatorStream) : []),
  ]
}

/** zod schemas to JSON Schema components, `$ref`s pointing at components/schemas (ids of the global registry included). */
function toComponents(named: Map<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>()
  // Schemas with a global id (TranscriptTurn, OutcomeShape, …) become components of that name, never `__shared`.
  for (const [id, schema] of z.globalRegistry._idmap) registry.add(schema, { id })
  for (const [id, schema] of named) registry.add(schema, { id })
  const { schemas } = z.toJSONSchema(registry, { target: 'draft-7', io, unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` })
  const components: Record<string, JsonObject> = {}
  for (const [id, schema] of Object.entries(schemas)) {
    const { $schema: _schema, $id: _id, id: _zodId, ...rest } = schema as JsonObject
    components[id] = rest
  }
  return components
}

/** The components reachable from `roots` by `$ref` (the global registry holds far more than the frames use). */
function reachable(components: Record<string, JsonObject>, roots: Iterable<string>): Record<string, JsonObject> {
  const kept: Record<string, JsonObject> = {}
  const pending = [...roots]
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    const component = components[id]
    if (kept[id] || !component) continue
    kept[id] = component
    for (const [, ref] of JSON.stringify(component).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) if (ref) pending.push(ref)
  }
  return Object.fromEntries(Object.entries(kept).sort(([a], [b]) => a.localeCompare(b)))
}

/** The AsyncAPI 3.0 document of the sockets at `baseUrl` (http://host:port). */
export function buildAsyncApiDocument(options: { baseUrl: string; version: string; protocols: readonly SocketProtocol[] }): JsonObject {
  const input = new Map<string, z.ZodType>()
  const output = new Map<string, z.ZodType>()
  const channels: JsonObject = {}
  const operations: JsonObject = {}
  const messages: JsonObject = {}

  for (const protocol of options.protocols) {
    const channelMessages: JsonObject = {}
    const sides = [
      { set: protocol.client, side: 'Client', action: 'receive', schemas: input, binary: protocol.binary?.client },
      { set: protocol.server, side: 'Server', action: 'send', schemas: output, binary: protocol.binary?.server },
    ] as const
    for (const { set, side, action, schemas, binary } of sides) {
      const refs: JsonObject[] = []
      for (const { name, schema } of messagesOf(set)) {
        const frameKey = `${protocol.name}${side}${name}`
        const schemaId = capitalise(frameKey)
        const meta = z.globalRegistry.get(schema)
        schemas.set(schemaId, schema)
        messages[frameKey] = {
          name: frameKey,
          title: `${side === 'Client' ? 'Client' : 'Service'}: ${name}`,
          ...(meta?.description ? { summary: meta.description } : {}),
          contentType: 'application/json',
          payload: { $ref: `#/components/schemas/${schemaId}` },
        }
        channelMessages[frameKey] = { $ref: `#/components/messages/${frameKey}` }
        refs.push({ $ref: `#/channels/${protocol.name}/messages/${frameKey}` })
      }
      if (binary) {
        const frameKey = `${protocol.name}${side}Audio`
        messages[frameKey] = {
          name: frameKey,
          title: `${side === 'Client' ? 'Client' : 'Service'}: binary audio`,
          summary: binary,
          contentType: 'application/octet-stream',
          payload: { type: 'string', format: 'binary' },
        }
        channelMessages[frameKey] = { $ref: `#/components/messages/${frameKey}` }
        refs.push({ $ref: `#/channels/${protocol.name}/messages/${frameKey}` })
      }
      operations[`${action}${capitalise(protocol.name)}Frames`] = {
        action,
        channel: { $ref: `#/channels/${protocol.name}` },
        summary: action === 'receive' ? `What a client sends on ${protocol.address}` : `What the service sends on ${protocol.address}`,
        security: [{ $ref: `#/components/securitySchemes/${protocol.security}` }],
        messages: refs,
      }
    }
    channels[protocol.name] = {
      address: protocol.address,
      title: protocol.title,
      description: protocol.description,
      servers: [{ $ref: '#/servers/voicedesk' }],
      ...(protocol.parameters ? { parameters: protocol.parameters } : {}),
      messages: channelMessages,
      bindings: {
        ws: {
          method: 'GET',
          ...(protocol.query ? { query: z.toJSONSchema(protocol.query, { target: 'draft-7' }) } : {}),
          bindingVersion: '0.1.0',
        },
      },
    }
  }
  for (const binding of Object.values(channels) as { bindings: { ws: { query?: JsonObject } } }[]) delete binding.bindings.ws.query?.$schema

  const inputComponents = toComponents(input, 'input')
  const outputComponents = toComponents(output, 'output')
  const schemas = { ...reachable(inputComponents, input.keys()), ...reachable(outputComponents, output.keys()) }
  const url = new URL(options.baseUrl)
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'VoiceDesk WebSockets',
      version: options.version,
      description:
        'The WebSockets of the VoiceDesk service, beside its HTTP API (GET /v1/openapi.json). Frames are JSON text unless a message says binary. See docs/api.md.',
    },
    defaultContentType: 'application/json',
    servers: { voicedesk: { host: url.host, protocol: 'ws', description: 'This VoiceDesk service' } },
    channels,
    operations,
    components: {
      schemas,
      messages,
      securitySchemes: {
        apiKeyQuery: { type: 'httpApiKey', name: 'api_key', in: 'query', description: 'An API key of the project.' },
        apiKeyHeaderOrQuery: {
          type: 'httpApiKey',
          name: 'Authorization',
          in: 'header',
          description:
            'The header `Authorization: Token <API key>` where the client can send headers, else `?api_key=<API key>` in the query.',
        },
        uiToken: { type: 'httpApiKey', name: 'token', in: 'query', description: 'The UI token of the operator UI (browser mode).' },
      },
    },
  }
}
