/**
 * Remembers values derived from the database for as long as the database is unchanged.
 * Any write, by this process or another, moves the store's change version and empties
 * the cache, so a hit is always what a fresh read would give. Used on hot read paths
 * (API key lookups, GET of an agent), where the read costs more than the request.
 */
export class ReadCache<V> {
  private version: string | undefined
  private readonly entries = new Map<string, V>()

  constructor(
    private readonly currentVersion: () => string,
    private readonly maxEntries = 10_000,
  ) {}

  /** The value while it is still current, without a read (no await on the hot path). */
  peek(key: string): V | undefined {
    const version = this.currentVersion()
    if (version !== this.version) {
      this.entries.clear()
      this.version = version
      return undefined
    }
    return this.entries.get(key)
  }

  /** The value, read (and remembered) when it is not current. */
  async get(key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const hit = this.peek(key)
    if (hit !== undefined) return hit
    // The version before the read: a write during the read leaves a value that the next peek drops.
    const version = this.version
    const value = await read()
    if (value !== undefined && version === this.version) {
      if (this.entries.size >= this.maxEntries) this.entries.clear()
      this.entries.set(key, value)
    }
    return value
  }
}
