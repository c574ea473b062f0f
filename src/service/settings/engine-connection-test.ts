import { probeChatServer, probeSpeechServer } from '../../engines/model-server/server-probe'
import type { EngineTestResult } from '../../shared/ipc/operations'
import type { SecretBox } from '../../store/secret-box'
import type { Store } from '../../store/ports'
import { readAiContentSetting } from './ai-content-settings'
import { readSttSetting } from './stt-settings'

/** A test must answer while the operator waits, whatever the engine's own (per request) timeout. */
const TEST_TIMEOUT_MS = 10_000

export interface EngineTestRequest {
  kind: 'ai' | 'stt'
  /** The form's values, not saved; left out: the stored setting. */
  setting?: { baseUrl: string; model?: string; apiKey?: string; timeoutMs?: number }
}

/**
 * settings.testEngine: reaches the AI engine's or the speech recogniser's server once, with the
 * stored setting or the form's unsaved one. A form that leaves the key out is tested with the
 * key stored for that engine (as saving it would keep it). Nothing is saved, and the key is
 * neither returned nor logged: the probe takes it out of every message.
 */
export async function testEngineConnection(store: Store, secrets: SecretBox, request: EngineTestRequest): Promise<EngineTestResult> {
  const stored = request.kind === 'ai' ? await readAiContentSetting(store) : await readSttSetting(store)
  const storedServer = stored.engine === 'openai-compatible' ? stored : undefined
  const setting = request.setting ?? storedServer
  if (!setting) {
    const what = request.kind === 'ai' ? 'The AI engine is offline (built in)' : 'Speech recognition is off'
    return { kind: request.kind, outcome: 'notConfigured', ok: false, elapsedMs: 0, message: `${what}: there is no server to test` }
  }
  const storedKey = storedServer?.apiKeySealed ? secrets.decrypt(storedServer.apiKeySealed) : undefined
  const options = {
    baseUrl: setting.baseUrl,
    apiKey: request.setting?.apiKey ?? storedKey,
    timeoutMs: Math.min(setting.timeoutMs ?? TEST_TIMEOUT_MS, TEST_TIMEOUT_MS),
  }
  const result =
    request.kind === 'ai'
      ? await probeChatServer({ ...options, model: setting.model ?? '' })
      : await probeSpeechServer({ ...options, model: setting.model })
  return {
    kind: request.kind,
    ...(setting.model === undefined ? {} : { model: setting.model }),
    ...result,
    ok: result.outcome === 'reachable',
  }
}
