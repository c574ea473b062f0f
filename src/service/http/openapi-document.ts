import { jsonSchemaTransformObject } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { TranscribeUploadFieldsSchema } from '../../shared/api/jobs'
import { RealtimeSttFieldsSchema, RealtimeSttJsonBodySchema } from '../../shared/api/realtime'

type JsonObject = Record<string, unknown>

interface OpenApiDocument extends JsonObject {
  paths?: Record<string, Record<string, JsonObject>>
}

const ERROR_RESPONSE = {
  description: 'Unknown or unguessed name, or a client that is not on this machine',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
}

/**
 * Paths served outside /v1 without a key, which no zod route describes: job audio (served by
 * @fastify/static) and job previews (HTML). Described by hand so that a generated client knows
 * what `mediaUrl` and `previewUrl` point at.
 */
const FILE_PATHS = {
  '/media/{file}': {
    get: {
      operationId: 'getMedia',
      tags: ['Media and previews'],
      summary: "A job's audio (the file name of its mediaUrl); no key needed, this machine only",
      security: [],
      parameters: [
        {
          name: 'file',
          in: 'path',
          required: true,
          schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{32}\\.wav$' },
          description: 'The unguessable file name.',
        },
        {
          name: 'range',
          in: 'header',
          required: false,
          schema: { type: 'string' },
          description: 'A byte range (`bytes=0-99`), as audio players seek.',
        },
      ],
      responses: {
        200: {
          description: 'WAV audio, PCM 16-bit mono at 22,050 Hz',
          content: { 'audio/wav': { schema: { type: 'string', contentMediaType: 'audio/wav' } } },
        },
        206: {
          description: 'The byte range asked for',
          content: { 'audio/wav': { schema: { type: 'string', contentMediaType: 'audio/wav' } } },
        },
        404: ERROR_RESPONSE,
      },
    },
  },
  '/preview/{token}': {
    get: {
      operationId: 'getJobPreview',
      tags: ['Media and previews'],
      summary: "The page behind a job's previewUrl: its state, audio, text or AI parts; no key needed, this machine only",
      security: [],
      parameters: [
        { name: 'token', in: 'path', required: true, schema: { type: 'string' }, description: 'The unguessable token of the previewUrl.' },
      ],
      responses: {
        200: { description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } },
        404: ERROR_RESPONSE,
      },
    },
  },
}

const AUDIO = { type: 'string', contentMediaType: 'audio/wav' }
/** The audio answers of the realtime TTS operations, which no zod schema describes. */
const AUDIO_RESPONSES: Record<string, JsonObject> = {
  synthesizeSpeech: {
    description:
      'The audio: a WAV file (16-bit mono, 22,050 Hz), or raw 16-bit little-endian PCM at 16 kHz when asked (format "pcm" or Accept: audio/pcm)',
    headers: { 'X-Audio-Duration': { description: 'Seconds of speech.', schema: { type: 'string' } } },
    content: { 'audio/wav': { schema: AUDIO }, 'audio/pcm': { schema: { type: 'string', contentMediaType: 'audio/pcm' } } },
  },
  streamSpeech: {
    description:
      'The audio, chunk by chunk as it is made (chunked transfer): a WAV with a streaming header (sizes 0xFFFFFFFF) then 22,050 Hz samples, or raw 16-bit little-endian PCM at 16 kHz when asked',
    content: { 'audio/wav': { schema: AUDIO }, 'audio/pcm': { schema: { type: 'string', contentMediaType: 'audio/pcm' } } },
  },
}

function addAudioResponses(paths: NonNullable<OpenApiDocument['paths']>): void {
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const audio = AUDIO_RESPONSES[operation.operationId as string]
      if (audio) operation.responses = { 200: audio, ...(operation.responses as JsonObject) }
    }
  }
}

const TEXT = { schema: { type: 'string' } }
/** Answers that are text of another type than JSON (their zod schema says only "a string"): the type the server sends. */
const TEXT_RESPONSES: Record<string, Record<string, JsonObject>> = {
  exportConversations: { 'text/csv': TEXT },
  getJobSubtitles: { 'application/x-subrip': TEXT, 'text/vtt': TEXT },
}

function setTextResponses(paths: NonNullable<OpenApiDocument['paths']>): void {
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const content = TEXT_RESPONSES[operation.operationId as string]
      const ok = (operation.responses as Record<string, JsonObject> | undefined)?.['200']
      if (content && ok) ok.content = content
    }
  }
}

function acceptsNull(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false
  const { type, anyOf } = schema as { type?: unknown; anyOf?: unknown }
  return type === 'null' || (Array.isArray(type) && type.includes('null')) || (Array.isArray(anyOf) && anyOf.some(acceptsNull))
}

/**
 * @fastify/swagger marks every request body required; a body the server accepts as absent
 * (a nullish zod body: clone, the job list) is not.
 */
function markOptionalBodies(paths: NonNullable<OpenApiDocument['paths']>): void {
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const body = operation.requestBody as { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined
      if (body?.content && Object.values(body.content).every((media) => acceptsNull(media.schema))) body.required = false
    }
  }
}

/** Operations that also take their body as multipart/form-data: a `file` part and these text parts (their preValidation reads it). */
const UPLOAD_BODIES: Record<string, z.ZodType> = {
  createTranscriptionJob: TranscribeUploadFieldsSchema,
  transcribeSpeech: RealtimeSttFieldsSchema,
}

/** Upload routes that take a JSON body too, checked by their handler (realtime STT's `{ audioBase64 }`). */
const JSON_BODIES_BESIDE_UPLOADS: Record<string, z.ZodType> = {
  transcribeSpeech: RealtimeSttJsonBodySchema,
}

function addUploadBodies(paths: NonNullable<OpenApiDocument['paths']>): void {
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const fields = UPLOAD_BODIES[operation.operationId as string]
      if (!fields) continue
      // A route that takes only uploads has no zod body: its request body is this alone.
      operation.requestBody ??= { required: true, content: {} }
      const body = operation.requestBody as { content: Record<string, unknown> }
      const schema = z.toJSONSchema(fields, { io: 'input', target: 'draft-2020-12' }) as JsonObject & {
        properties?: JsonObject
        required?: string[]
      }
      delete schema.$schema
      const json = JSON_BODIES_BESIDE_UPLOADS[operation.operationId as string]
      if (json) {
        const jsonSchema = z.toJSONSchema(json, { io: 'input', target: 'draft-2020-12' }) as JsonObject
        delete jsonSchema.$schema
        body.content['application/json'] = { schema: jsonSchema }
      }
      body.content['multipart/form-data'] = {
        schema: {
          ...schema,
          properties: {
            file: {
              type: 'string',
              contentMediaType: 'application/octet-stream',
              description: 'The audio or video, streamed to the media store.',
            },
            ...schema.properties,
          },
          required: ['file', ...(schema.required ?? [])],
        },
      }
    }
  }
}

const COMPONENT_REF = '#/components/schemas/'

/** Every `$ref` string below `value`, rewritten by `rename` when given; answers the component names met. */
function componentRefs(value: unknown, found: Set<string>, rename?: Map<string, string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) componentRefs(item, found, rename)
  else if (typeof value === 'object' && value !== null) {
    const object = value as JsonObject
    for (const [key, child] of Object.entries(object)) {
      if (key === '$ref' && typeof child === 'string' && child.startsWith(COMPONENT_REF)) {
        const name = child.slice(COMPONENT_REF.length)
        const renamed = rename?.get(name)
        if (renamed) object.$ref = COMPONENT_REF + renamed
        found.add(renamed ?? name)
      } else componentRefs(child, found, rename)
    }
  }
  return found
}

/**
 * zod's registry gives every schema with an id two components, its output (`Job`) and its input
 * (`JobInput`): responses use the first, request bodies the second, so about half of them are
 * never referenced. Only the components the paths reach (directly or through other components)
 * are kept, and an input kept without its output takes the plain name (`UpdateVoiceAgentBody`,
 * not `UpdateVoiceAgentBodyInput`): the names stay those of the zod ids.
 */
function keepReachableComponents(document: OpenApiDocument): void {
  const schemas = (document.components as { schemas?: Record<string, unknown> } | undefined)?.schemas
  if (!schemas) return
  const reachable = componentRefs(document.paths, new Set())
  const pending = [...reachable]
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
    for (const used of componentRefs(schemas[name], new Set())) {
      if (reachable.has(used)) continue
      reachable.add(used)
      pending.push(used)
    }
  }
  const rename = new Map<string, string>()
  for (const name of reachable) {
    const plain = name.replace(/Input$/, '')
    if (plain !== name && !reachable.has(plain)) rename.set(name, plain)
  }
  // In name order: zod's registry holds them in the order their modules were first loaded, which
  // the document (and the clients generated from it) must not depend on.
  const kept: Record<string, unknown> = {}
  const entries = Object.entries(schemas).filter(([name]) => reachable.has(name))
  for (const [name, schema] of entries
    .map(([name, schema]) => [rename.get(name) ?? name, schema] as const)
    .sort(([a], [b]) => (a < b ? -1 : 1)))
    kept[name] = schema
  componentRefs(kept, new Set(), rename)
  componentRefs(document.paths, new Set(), rename)
  ;(document.components as { schemas: Record<string, unknown> }).schemas = kept
}

/** The document as clients and generators need it: zod's components, optional bodies, uploads, the file paths. */
export function finishOpenApiDocument(
  input: Parameters<typeof jsonSchemaTransformObject>[0],
): ReturnType<typeof jsonSchemaTransformObject> {
  const document = jsonSchemaTransformObject(input) as OpenApiDocument
  document.paths ??= {}
  markOptionalBodies(document.paths)
  addAudioResponses(document.paths)
  setTextResponses(document.paths)
  addUploadBodies(document.paths)
  Object.assign(document.paths, FILE_PATHS)
  keepReachableComponents(document)
  return document
}
