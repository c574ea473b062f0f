// The speechRecognition setting: off by default, the key sealed at rest and shown only as
// present, and the engine it chooses sending the key it unsealed (to a loopback double that
// stands for a speech server outside this machine).
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { z } from 'zod'
import { describe, expect, it } from 'vitest'
import {
  createSttEngine,
  readSttSetting,
  saveSttSetting,
  STT_SETTING_KEY,
  sttSettingView,
  type SttSetting,
} from '../../src/service/settings/stt-settings'
import { SecretBox } from '../../src/store/secret-box'
import type { Store } from '../../src/store/ports'

/** Only the settings of the storage port, in memory, each value re-validated as the real stores do. */
function settingsStore(): Store & { saved: Map<string, unknown> } {
  const saved = new Map<string, unknown>()
  const settings = {
    get: async <T extends z.ZodType>(key: string, schema: T) => (saved.has(key) ? schema.parse(saved.get(key)) : undefined),
    set: async (key: string, value: unknown) => void saved.set(key, value),
  }
  return { settings, saved } as unknown as Store & { saved: Map<string, unknown> }
}

describe('speech recognition setting', () => {
  const secrets = new SecretBox(randomBytes(32))

  it('is off by default, and then no engine is made', async () => {
    const store = settingsStore()
    expect(await readSttSetting(store)).toEqual({ engine: 'off' })
    expect(await createSttEngine(store, secrets)).toBeUndefined()
    expect(sttSettingView({ engine: 'off' })).toEqual({ engine: 'off' })
  })

  it('makes an OpenAI-compatible engine that sends the unsealed key; the view shows only that there is one', async () => {
    let authorization: string | undefined
    const server = createServer((request, response) => {
      authorization = request.headers.authorization
      request.resume()
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{"text":"hello"}'))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const store = settingsStore()
      const setting: SttSetting = {
        engine: 'openai-compatible',
        baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        model: 'whisper-large-v3',
        apiKeySealed: secrets.encrypt('sk-sealed-123'),
      }
      store.saved.set(STT_SETTING_KEY, setting)
      const engine = (await createSttEngine(store, secrets))!
      expect(engine.model).toBe('whisper-large-v3')
      expect(await engine.transcribe(Buffer.alloc(44))).toEqual({ text: 'hello' })
      expect(authorization).toBe('Bearer sk-sealed-123')
      expect(sttSettingView(setting)).toEqual({
        engine: 'openai-compatible',
        baseUrl: setting.baseUrl,
        model: 'whisper-large-v3',
        hasApiKey: true,
      })
      expect(JSON.stringify(sttSettingView(setting))).not.toContain('sealed')
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it('saves a choice: the key sealed, kept when left out, forgotten with null or off; a setting it cannot store is refused', async () => {
    const store = settingsStore()
    const baseUrl = 'http://127.0.0.1:9/v1'
    const first = await saveSttSetting(store, secrets, { engine: 'openai-compatible', baseUrl, apiKey: 'sk-one' })
    expect(first.engine === 'openai-compatible' && secrets.decrypt(first.apiKeySealed!)).toBe('sk-one')
    expect(JSON.stringify(store.saved.get(STT_SETTING_KEY))).not.toContain('sk-one')
    const kept = await saveSttSetting(store, secrets, { engine: 'openai-compatible', baseUrl, model: 'whisper-1' })
    expect(kept).toMatchObject({ model: 'whisper-1', apiKeySealed: first.engine === 'openai-compatible' ? first.apiKeySealed : 'none' })
    expect(await saveSttSetting(store, secrets, { engine: 'openai-compatible', baseUrl, apiKey: null })).toEqual({
      engine: 'openai-compatible',
      baseUrl,
    })
    await saveSttSetting(store, secrets, { engine: 'openai-compatible', baseUrl, apiKey: 'sk-two' })
    expect(await saveSttSetting(store, secrets, { engine: 'off' })).toEqual({ engine: 'off' })
    expect(await saveSttSetting(store, secrets, { engine: 'openai-compatible', baseUrl })).toEqual({ engine: 'openai-compatible', baseUrl })
    await expect(saveSttSetting(store, secrets, { engine: 'openai-compatible', baseUrl: 'ftp://x' })).rejects.toBeInstanceOf(z.ZodError)
    expect(await readSttSetting(store)).toEqual({ engine: 'openai-compatible', baseUrl })
  })
})
