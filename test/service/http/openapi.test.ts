import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { startTestService } from '../../helpers/test-service'

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document of every operation, generated from the zod contract', async () => {
    const service = await startTestService()
    const response = await service.call('GET', '/v1/openapi.json')
    expect(response.statusCode).toBe(200)
    const document = response.json()
    expect(document.openapi).toBe('3.1.0')
    const result = await new Validator().validate(document)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)

    const patch = document.paths['/v1/voice-agents/{voiceAgentId}'].patch
    const body = patch.requestBody.content['application/json'].schema
    const resolved = body.$ref ? document.components.schemas[body.$ref.split('/').pop()] : body
    expect(resolved.additionalProperties).toBe(false)
    expect(Object.keys(resolved.properties)).toEqual(expect.arrayContaining(['agentName', 'lang', 'voiceId', 'tools', 'params', 'outcomeResponseShape', 'webhookAuth']))
    expect(resolved.properties).not.toHaveProperty('description')
    expect(Object.keys(patch.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '404']))
    expect(document.components.securitySchemes.apiKeyToken).toMatchObject({ type: 'apiKey', in: 'header', name: 'Authorization' })
  })
})
