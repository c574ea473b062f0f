/**
 * The `Authorization` header a webhook carries, from the webhookAuth parts that were given:
 * `<authKey> <authSecret>` (the seed), or the one part alone (a job's webhookAuth may have
 * one), or undefined for none.
 */
export function webhookAuthorization(authKey: string | null | undefined, authSecret: string | null | undefined): string | undefined {
  const parts = [authKey, authSecret].filter((part): part is string => typeof part === 'string')
  return parts.length > 0 ? parts.join(' ') : undefined
}
