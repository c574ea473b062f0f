/** JSON with object keys sorted, so two equal values always give the same text. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner
    return Object.fromEntries(Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
  })
}

export function sameJson(a: unknown, b: unknown): boolean {
  return stableJson(a) === stableJson(b)
}
