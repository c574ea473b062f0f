import type { KeyIdentity } from '../../store/records'
import type { JobRecord } from '../../store/records'
import type { SecretBox } from '../../store/secret-box'
import type { MediaStore, Store } from '../../store/ports'
import type { WebhookAddressPolicy } from '../../webhooks/webhook-address-policy'
import type { MediaIntakeLimits } from '../media-intake/media-intake-limits'
import type { TemplateCatalogue } from './templates-catalogue'
import type { ReadCache } from './read-cache'
import type { Telephony } from './telephony'

/** The local SIP endpoint that phone numbers point at (contract: "local SIP settings"). */
export interface SipSettings {
  originationUri: string
  outboundAddress: string
  transportType: string
  customHeaders: Record<string, string>
}

/** Everything a use case needs, built once by the runtime and shared by HTTP and IPC. */
export interface OpsContext {
  store: Store
  /** Job audio and transcriptions' source media: the data folder's media/, or the database in team mode. */
  media: MediaStore
  secrets: SecretBox
  templates: TemplateCatalogue
  sip: SipSettings
  /** The SIP line: its users' registrations, and the agents' outbound calls. */
  telephony: Telephony
  now: () => Date
  /** The base URL clients reach this service at (for media and preview links), e.g. http://127.0.0.1:8740. */
  baseUrl: () => string
  /** Tells the job runner (and live views) a job was queued, so it starts at once rather than on a timer. */
  jobEnqueued: (job: JobRecord) => void
  /** Tells the webhook sender a delivery is due now. */
  webhookQueued: () => void
  /** `model`, `systemModelKey` and `processingType` of AI-content jobs, from the chosen engine. */
  aiContentModel: () => { model: string; systemModelKey: string; processingType: string }
  /** `model`, `systemModelKey` and `processingType` of translation jobs made now, from the language-model setting. */
  translationModel: () => Promise<{ model: string; systemModelKey: string; processingType: string }>
  /** The engines a call made now would use: the dialogue (shown as the conversation's `model`) and speech recognition (off when null). */
  callEngines: () => Promise<{ dialogue: string; model: string; stt: { engine: string; model: string } | null }>
  /** How long a new conversation waits for its socket before it ends FAILED (CONVERSATION_NOT_STARTED); a minute by default. */
  socketDeadlineMs?: number
  /** Where webhooks may go (`--allow-webhook-host` opens refused ones); the sender checks again when it connects. */
  webhookAddresses: WebhookAddressPolicy
  /** How large uploaded and fetched media may be, and how long a fetch may wait (RuntimeConfig.mediaIntake). */
  mediaIntake: MediaIntakeLimits
  /** GET answers of agents as UTF-8 JSON bytes, by `<projectId>:<agentId>`, valid while the store is unchanged. */
  agentEnvelopes: ReadCache<Buffer>
}

/** Who is calling: the identity of a valid API key. */
export type Caller = KeyIdentity

export function timestamp(context: Pick<OpsContext, 'now'>): string {
  return context.now().toISOString()
}
