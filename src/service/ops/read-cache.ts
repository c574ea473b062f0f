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

  get(key: string, read: () => V | undefined): V | undefined {
    const version = this.currentVersion()
    if (version !== this.version) {
      this.entries.clear()
      this.version = version
    }
    const hit = this.entries.get(key)
    if (hit !== undefined) return hit
    const value = read()
    if (value !== undefined) {
      if (this.entries.size >= this.maxEntries) this.entries.clear()
      this.entries.set(key, value)
    }
    return value
  }
}
