import { z } from 'zod'

/*
 * The state admin API (/_voicedesk/state, /reset, /snapshots; docs/api.md, "State: export,
 * import, snapshots, reset"), and the operator UI's operations on it.
 */

export const SNAPSHOT_NAME_PATTERN = /^[A-Za-z0-9._-]{1,64}$/
export const SnapshotNameSchema = z.string().regex(SNAPSHOT_NAME_PATTERN, 'A snapshot name is 1 to 64 of A-Z a-z 0-9 . _ -')

export const TakeSnapshotBodySchema = z.object({ name: SnapshotNameSchema }).strict()
export const SnapshotParamsSchema = z.object({ name: SnapshotNameSchema })

const count = z.number().int().nonnegative()
/** Rows per kind. `agentVersions`: 0 in snapshots taken before agents had versions. */
export const StateCountsSchema = z.object({
  agents: count,
  agentVersions: count.default(0),
  phoneNumbers: count,
  /** 0 in archives and snapshots made before voice dictionaries. */
  voiceDictionaries: count.default(0),
  dictionaryActivations: count.default(0),
  jobs: count,
  deliveries: count,
  attempts: count,
})
export type StateCounts = z.infer<typeof StateCountsSchema>

export const SnapshotSchema = z.object({
  name: z.string(),
  createdAt: z.string(),
  sizeBytes: z.number().int().nonnegative(),
  counts: StateCountsSchema,
})
export type Snapshot = z.infer<typeof SnapshotSchema>

/** A passphrase that seals an export's secrets: at least 8 characters. */
export const ExportPassphraseSchema = z.string().min(8, 'At least 8 characters').max(1024)
/** The passphrase an import opens sealed secrets with. */
export const ImportPassphraseSchema = z.string().min(1).max(1024)

export const ImportOutcomeSchema = z.object({
  counts: StateCountsSchema,
  settings: z.object({ applied: z.array(z.string()), skipped: z.array(z.string()) }),
})
export type ImportOutcome = z.infer<typeof ImportOutcomeSchema>

export const ResetOutcomeSchema = z.object({ removed: StateCountsSchema })

/** The header that carries a passphrase (never the query: URLs end up in logs and the journal). */
export const PASSPHRASE_HEADER = 'x-voicedesk-passphrase'
