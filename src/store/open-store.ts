import type { MediaStore, Store } from './ports'
import type { RequestJournalStore } from './request-journal'
import { openSqliteRequestJournal } from './sqlite/request-journal-store'
import { openSqliteStore } from './sqlite/store'

/** Where the data lives: one SQLite file (the desktop, `serve`), or a PostgreSQL database (a team). */
export type StoreLocation =
  { engine: 'sqlite'; file: string; nativeBinding?: string } | { engine: 'postgres'; url: string; poolSize?: number }

export interface OpenedStore {
  store: Store
  /** Media every instance can read (the database, in team mode); undefined when media are files in the data folder. */
  sharedMedia: MediaStore | undefined
}

/**
 * Opens and migrates the store at `location`: the one place that picks an engine. The
 * PostgreSQL engine (and its driver) is loaded only when asked for, so the desktop pays nothing.
 */
export async function openStore(location: StoreLocation): Promise<OpenedStore> {
  if (location.engine === 'sqlite')
    return { store: openSqliteStore(location.file, { nativeBinding: location.nativeBinding }), sharedMedia: undefined }
  const [{ openPostgresStore }, { PostgresMediaStore }] = await Promise.all([import('./postgres/store'), import('./postgres/media-store')])
  const store = await openPostgresStore({ url: location.url, poolSize: location.poolSize })
  return { store, sharedMedia: new PostgresMediaStore(store.pool) }
}

/** Opens the request journal's own SQLite file (see request-journal.ts): never the store's connection. */
export function openRequestJournalStore(file: string, nativeBinding?: string): RequestJournalStore {
  return openSqliteRequestJournal(file, { nativeBinding })
}
