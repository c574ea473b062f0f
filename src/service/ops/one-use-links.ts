import { unguessable } from './unguessable'

/** How long a one-use link of the operator UI stays good. */
export const LINK_LIFETIME_MS = 5 * 60_000

interface Held<Kinds, K extends keyof Kinds> {
  kind: K
  payload: Kinds[K]
  expiresAt: number
}

/**
 * One-use, five-minute links for the operator UI (state's export download and import upload, a
 * transcription's upload): the UI never holds an API key, so the link's unguessable token is the
 * permission, used once. `Kinds` maps each kind of link to what it carries (the caller, ...).
 */
export class OneUseLinks<Kinds extends Record<string, unknown>> {
  private readonly links = new Map<string, Held<Kinds, keyof Kinds>>()

  constructor(private readonly now: () => number) {}

  create<K extends keyof Kinds>(kind: K, payload: Kinds[K]): string {
    this.sweep()
    const token = unguessable()
    this.links.set(token, { kind, payload, expiresAt: this.now() + LINK_LIFETIME_MS })
    return token
  }

  /** What the link carries, the link removed (a second use finds nothing); undefined when unknown, used, expired, or of another kind. */
  take<K extends keyof Kinds>(token: string, kind: K): Kinds[K] | undefined {
    const link = this.links.get(token)
    if (!link || link.kind !== kind) return undefined
    this.links.delete(token)
    return link.expiresAt > this.now() ? (link.payload as Kinds[K]) : undefined
  }

  private sweep(): void {
    const now = this.now()
    for (const [token, link] of this.links) if (link.expiresAt <= now) this.links.delete(token)
  }
}
