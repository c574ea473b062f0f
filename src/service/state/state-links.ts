import { randomBytes } from 'node:crypto'
import type { KeyIdentity } from '../../store/records'

/** How long a download or upload link of the operator UI stays good. */
export const LINK_LIFETIME_MS = 5 * 60_000

export type StateLinkKind = 'export' | 'import'

export interface StateLink {
  kind: StateLinkKind
  caller: KeyIdentity
  passphrase?: string
  expiresAt: number
}

/**
 * One-use, five-minute links for the operator UI (state.exportLink, state.importLink): the UI
 * never holds an API key, so the link's unguessable token is the permission, used once.
 */
export class StateLinks {
  private readonly links = new Map<string, StateLink>()

  constructor(private readonly now: () => number) {}

  create(kind: StateLinkKind, caller: KeyIdentity, passphrase?: string): string {
    this.sweep()
    const token = randomBytes(24).toString('base64url')
    this.links.set(token, { kind, caller, passphrase, expiresAt: this.now() + LINK_LIFETIME_MS })
    return token
  }

  /** The link, removed (a second use finds nothing); undefined when unknown, used, expired, or of the other kind. */
  take(token: string, kind: StateLinkKind): StateLink | undefined {
    const link = this.links.get(token)
    if (!link || link.kind !== kind) return undefined
    this.links.delete(token)
    return link.expiresAt > this.now() ? link : undefined
  }

  private sweep(): void {
    const now = this.now()
    for (const [token, link] of this.links) if (link.expiresAt <= now) this.links.delete(token)
  }
}
