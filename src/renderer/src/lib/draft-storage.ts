import { z } from 'zod'
import type { OperatorAgent } from '../../../shared/ipc/operations'
import { draftDiffers, type AgentDraft } from './agent-draft'

/*
 * An unsaved agent draft, kept in the page's storage so that it outlives the editor: a restart
 * of the service makes a new UI token, the page shows the token screen (the editor goes) and the
 * new link reloads the page. localStorage, not sessionStorage: the new link is often opened in a
 * new tab or window, which starts with an empty sessionStorage (and a reload the operator
 * confirmed must not lose the edit either). The webhook's secret is never written there: it stays
 * in memory only, like every secret.
 */

const STORAGE_PREFIX = 'voicedesk.agentDraft.'

/** The slice of localStorage the drafts use (a Map-backed object in tests). */
export interface DraftStorage {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export const draftStorageKeyOf = (agentId: string) => `${STORAGE_PREFIX}${agentId}`

/** What is kept: the draft without its secret (the stored value is read back through this, so a tampered or older entry is ignored). */
const StoredDraftSchema = z.object({
  agentName: z.string(),
  lang: z.enum(['ar', 'en']),
  voiceId: z.string(),
  greetingMessage: z.string(),
  preamble: z.string(),
  params: z.array(z.object({ key: z.string(), value: z.string() })),
  pokeMessages: z.array(z.string()),
  silenceThreshold: z.string(),
  // Optional: a draft kept before the editor had them names neither; it meant the saved values.
  endOfTurnSilenceMs: z.string().optional(),
  maxCallerTurnSeconds: z.string().optional(),
  interrupt: z.boolean(),
  realTime: z.boolean(),
  tools: z.object({ genderDetection: z.boolean(), smartCallEnd: z.boolean() }),
  outcome: z.string(),
  outcomeShapeText: z.string(),
  webhookUrl: z.string(),
  webhookAuthKey: z.string(),
})

/** Keeps the draft of this agent (the secret left out). A full or refused storage keeps it in memory only. */
export function keepDraft(storage: DraftStorage, agentId: string, draft: AgentDraft): void {
  const { webhookAuthSecret: _secret, ...kept } = draft
  try {
    storage.setItem(draftStorageKeyOf(agentId), JSON.stringify(kept))
  } catch {
    // Quota or a storage the browser refuses: the editor still holds the draft.
  }
}

export function forgetDraft(storage: DraftStorage, agentId: string): void {
  try {
    storage.removeItem(draftStorageKeyOf(agentId))
  } catch {
    // Nothing kept can be removed from a storage the browser refuses.
  }
}

/**
 * The kept draft of this agent worth offering back: null when none was kept, when it is
 * unreadable (dropped), or when it equals the saved agent (dropped too: nothing to restore).
 */
export function keptDraftToOffer(storage: DraftStorage, agent: OperatorAgent): AgentDraft | null {
  let text: string | null
  try {
    text = storage.getItem(draftStorageKeyOf(agent.id))
  } catch {
    return null
  }
  if (text === null) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    parsed = null
  }
  const kept = StoredDraftSchema.safeParse(parsed)
  const draft: AgentDraft | null = kept.success
    ? {
        ...kept.data,
        endOfTurnSilenceMs: kept.data.endOfTurnSilenceMs ?? String(agent.endOfTurnSilenceMs),
        maxCallerTurnSeconds: kept.data.maxCallerTurnSeconds ?? String(agent.maxCallerTurnSeconds),
        webhookAuthSecret: '',
      }
    : null
  if (draft === null || !draftDiffers(agent, draft)) {
    forgetDraft(storage, agent.id)
    return null
  }
  return draft
}
