import { type z } from 'zod'
import { CorsOriginsSchema, DEFAULT_CORS_ORIGINS } from '../../shared/api/cors'
import type { Store } from '../../store/ports'

const SETTING_KEY = 'corsOrigins'

export type CorsOriginsSource = 'cli' | 'setting' | 'default'

/** The origins allowed to call /v1 from a browser, and where they come from: CLI beats setting beats default. */
export async function effectiveCorsOrigins(
  store: Store,
  cliOrigins: readonly string[] | undefined,
): Promise<{ origins: readonly string[]; source: CorsOriginsSource }> {
  if (cliOrigins && cliOrigins.length > 0) return { origins: cliOrigins, source: 'cli' }
  const saved = await store.settings.get(SETTING_KEY, CorsOriginsSchema.nullable())
  if (saved) return { origins: saved, source: 'setting' }
  return { origins: DEFAULT_CORS_ORIGINS, source: 'default' }
}

/** Saves the `corsOrigins` setting of the data folder; null goes back to the default. */
export async function saveCorsOrigins(store: Store, origins: z.infer<typeof CorsOriginsSchema> | null): Promise<void> {
  await store.settings.set(SETTING_KEY, origins)
}
