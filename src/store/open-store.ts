import type { Store } from './ports'
import { openSqliteStore } from './sqlite/store'

/** Where the data lives: one SQLite file (the desktop, `serve`), or a PostgreSQL database (a team). */
export type StoreLocation = { engine: 'sqlite'; file: string; nativeBinding?: string }

/** Opens and migrates the store at `location`: the one place that picks an engine. */
export async function openStore(location: StoreLocation): Promise<Store> {
  return openSqliteStore(location.file, { nativeBinding: location.nativeBinding })
}
