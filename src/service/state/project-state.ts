import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { finished } from 'node:stream/promises'
import type { Readable } from 'node:stream'
import { SNAPSHOT_NAME_PATTERN, StateCountsSchema } from '../../shared/api/state'
import type { MediaStore, ReplacedProject, Store } from '../../store/ports'
import type { KeyIdentity, ProjectCounts, ProjectRow } from '../../store/records'
import type { SecretBox } from '../../store/secret-box'
import { isUniqueViolation } from '../../store/constraint-errors'
import { COUNT_OF_KIND, noCounts, ProjectRowError } from '../../store/project-rows'
import { byteLimit } from '../../store/media-byte-limit'
import { MediaTooLargeError } from '../../store/media-errors'
import { MEDIA_NAME } from '../ops/media-names'
import { ServiceError } from '../ops/service-error'
import { storageServiceError } from '../ops/storage-service-error'
import { PassphraseSeal, WrongPassphraseError } from './passphrase-seal'
import { exportFolderPrefix, ImportFolder } from './import-leftovers'
import { exportSettings, importableSettings, SettingsFileSchema, type SettingsOutcome } from './portable-settings'
import type { SnapshotInfo, SnapshotShelf } from './snapshot-shelf'
import {
  ArchiveError,
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  DEFAULT_ARCHIVE_LIMITS,
  linesOf,
  readStateArchive,
  writeStateArchive,
  type ArchiveLimits,
  type Manifest,
} from './state-archive'

/**
 * The version of ProjectRow's shape that archives carry (ManifestSchema.schema). 2 added the
 * `agentVersion` rows; a version-1 archive still imports (each agent gets version 1, see checkedRows).
 * 3 added voice dictionaries and their activations (an older archive imports with none).
 */
export const ROW_SCHEMA_VERSION = 3
const OLDEST_ROW_SCHEMA_VERSION = 1

/** The fields of each kind of row that hold a secret sealed with the store's key (SecretBox). */
const SECRET_FIELDS: Readonly<Record<ProjectRow['kind'], readonly string[]>> = {
  agent: ['webhookAuthSecret'],
  agentVersion: ['webhookAuthSecret'],
  phoneNumber: ['providerAuthToken'],
  voiceDictionary: [],
  dictionaryActivation: [],
  job: ['webhookAuthSecret'],
  delivery: ['authSecret'],
  attempt: [],
}

/** What keyCheck opens to with the key that sealed an unsealed archive's secrets. */
const KEY_CHECK_PLAINTEXT = 'voicedesk-state key check'

/** The largest archive an import reads (media included) unless the runtime says otherwise. */
export const DEFAULT_MAX_IMPORT_BYTES = 16 * 1024 ** 3

export interface ProjectStateOptions {
  store: Store
  media: MediaStore
  /** Where the store is (the data folder's path, or the database's label): an import's temp folder says so, for removeDeadImportLeftovers. */
  storage: string
  secrets: SecretBox
  shelf: SnapshotShelf
  version: string
  now: () => Date
  maxImportBytes?: number
  /** What an archive may hold once ungzipped (DEFAULT_ARCHIVE_LIMITS unless the runtime says otherwise). */
  archiveLimits?: Partial<ArchiveLimits>
  /** After a project's rows were replaced (import, restore, reset): wake the runner and the sender for the work that came back. */
  replaced?: (projectId: string) => void
}

export interface ImportOutcome {
  counts: ProjectCounts
  settings: SettingsOutcome
}

type ImportMode = 'import' | 'restore'

/**
 * A project's state as one archive, and back (docs/api.md, "State: export, import, snapshots,
 * reset"): export, import into an empty project, reset, and snapshots the service keeps.
 * Rows go through the store port (one consistent read; one transaction to replace), media
 * through the MediaStore, settings through the settings repository.
 */
export class ProjectState {
  /** Projects with an import, restore or reset under way: a second one meanwhile is a 409, not a race. */
  private readonly busy = new Set<string>()

  constructor(private readonly options: ProjectStateOptions) {}

  /**
   * The project's archive, streamed. Without `passphrase` the rows' secrets stay sealed with
   * this service's key and the settings' secrets are left out; with it, both are sealed under it.
   */
  async exportArchive(projectId: string, passphrase?: string): Promise<{ stream: Readable; manifest: Manifest }> {
    const { store, media, secrets } = this.options
    const seal = passphrase === undefined ? undefined : await PassphraseSeal.create(passphrase)
    const folder = await mkdtemp(exportFolderPrefix())
    try {
      const rowsFile = join(folder, 'rows.jsonl')
      const out = createWriteStream(rowsFile, { mode: 0o600 })
      const hash = createHash('sha256')
      const counts = noCounts()
      const mediaNames = new Set<string>()
      let secretCount = 0
      let size = 0
      try {
        for await (const row of store.projectData.exportProject(projectId)) {
          counts[COUNT_OF_KIND[row.kind]] += 1
          if (row.kind === 'job' && row.record.mediaFile) mediaNames.add(row.record.mediaFile)
          const record = row.record as unknown as Record<string, unknown>
          for (const field of SECRET_FIELDS[row.kind]) {
            const value = record[field]
            if (typeof value !== 'string' || value === '') continue
            secretCount += 1
            if (seal) record[field] = seal.seal(secrets.decrypt(value))
          }
          const line = Buffer.from(JSON.stringify(row) + '\n')
          size += line.length
          hash.update(line)
          await writeLine(out, line)
        }
      } finally {
        out.end()
        await finished(out)
      }
      const settingsFile = await exportSettings(store.settings, secrets, seal)
      const settings = Buffer.from(JSON.stringify(settingsFile))
      const manifest: Manifest = {
        format: ARCHIVE_FORMAT,
        version: ARCHIVE_VERSION,
        exportedAt: this.options.now().toISOString(),
        service: { name: 'voicedesk', version: this.options.version },
        engine: store.engine,
        schema: ROW_SCHEMA_VERSION,
        counts: { ...counts },
        sealed: seal !== undefined,
        ...(seal ? { passphrase: seal.parameters } : {}),
        keyCheck: seal ? null : secrets.encrypt(KEY_CHECK_PLAINTEXT),
        secretCount,
        rows: { size, sha256: hash.digest('hex') },
        settings: { size: settings.length, sha256: createHash('sha256').update(settings).digest('hex') },
      }
      const stream = writeStateArchive({
        manifest,
        rows: () => createReadStream(rowsFile),
        settings,
        media: [...mediaNames].map((name) => ({ name, open: () => media.open(name) })),
      })
      const cleanUp = () => void rm(folder, { recursive: true, force: true })
      stream.once('close', cleanUp)
      stream.once('error', cleanUp)
      return { stream, manifest }
    } catch (error) {
      await rm(folder, { recursive: true, force: true })
      throw error
    }
  }

  /**
   * Imports an archive into the project, which must be empty (no agents, numbers or jobs: else
   * 409 "reset first"). The rows go in with one replaceProject; media are written first, and
   * removed again when the rows fail. Settings the archive holds whole are stored too.
   */
  async importArchive(projectId: string, source: Readable, options: { owner: KeyIdentity; passphrase?: string }): Promise<ImportOutcome> {
    return this.exclusive(projectId, () => this.replaceFromArchive(projectId, source, { ...options, mode: 'import' }))
  }

  /** Empties the project (its keys and users stay); answers what was removed. */
  async reset(projectId: string): Promise<{ removed: ProjectCounts }> {
    return this.exclusive(projectId, async () => {
      const removed = await this.options.store.projectData.projectCounts(projectId)
      const { mediaBefore } = await this.replaceRows(projectId, [], undefined)
      await this.removeMedia(mediaBefore)
      this.options.replaced?.(projectId)
      return { removed }
    })
  }

  async listSnapshots(projectId: string): Promise<SnapshotInfo[]> {
    return this.options.shelf.list(projectId)
  }

  /** Takes a snapshot named `name` (409 when one has that name: delete it first). */
  async takeSnapshot(projectId: string, name: string): Promise<SnapshotInfo> {
    checkSnapshotName(name)
    const { shelf } = this.options
    if ((await shelf.list(projectId)).some((info) => info.name === name)) {
      throw new ServiceError('CONFLICT', `A snapshot named ${name} exists already: delete it first, or choose another name`)
    }
    const { stream, manifest } = await this.exportArchive(projectId)
    return shelf.save(projectId, { name, createdAt: manifest.exportedAt, counts: StateCountsSchema.parse(manifest.counts) }, stream)
  }

  /** The project as it was when the snapshot was taken, in one transaction; settings are left as they are. */
  async restoreSnapshot(projectId: string, name: string, owner: KeyIdentity): Promise<ImportOutcome> {
    checkSnapshotName(name)
    return this.exclusive(projectId, async () => {
      const source = await this.options.shelf.open(projectId, name)
      if (!source) throw new ServiceError('NOT_FOUND', `No snapshot named ${name} in this project`)
      try {
        return await this.replaceFromArchive(projectId, source, { owner, mode: 'restore' })
      } catch (error) {
        if (error instanceof ArchiveError) throw new ServiceError('CONFLICT', `The snapshot ${name} cannot be read: ${error.message}`)
        throw error
      }
    })
  }

  async deleteSnapshot(projectId: string, name: string): Promise<SnapshotInfo> {
    checkSnapshotName(name)
    const info = (await this.options.shelf.list(projectId)).find((snapshot) => snapshot.name === name)
    if (!info) throw new ServiceError('NOT_FOUND', `No snapshot named ${name} in this project`)
    await this.options.shelf.remove(projectId, name)
    return info
  }

  private async exclusive<T>(projectId: string, work: () => Promise<T>): Promise<T> {
    if (this.busy.has(projectId))
      throw new ServiceError('CONFLICT', 'Another import, restore or reset of this project is under way: try again when it ended')
    this.busy.add(projectId)
    try {
      return await work()
    } finally {
      this.busy.delete(projectId)
    }
  }

  private async replaceFromArchive(
    projectId: string,
    raw: Readable,
    options: { owner: KeyIdentity; passphrase?: string; mode: ImportMode },
  ): Promise<ImportOutcome> {
    const { store, media, secrets } = this.options
    const maxBytes = this.options.maxImportBytes ?? DEFAULT_MAX_IMPORT_BYTES
    const limits = { ...DEFAULT_ARCHIVE_LIMITS, ...this.options.archiveLimits }
    const limit = byteLimit(maxBytes)
    raw.on('error', (error) => limit.stream.destroy(error))
    const source = raw.pipe(limit.stream)
    const folder = await ImportFolder.create(this.options.storage)
    const rowsFile = folder.rowsFile
    const written: string[] = []
    const named = new Set<string>()
    let seal: PassphraseSeal | undefined
    let settings: ReturnType<typeof importableSettings> | undefined
    let rowCounts = noCounts()
    let declaredCounts: Manifest['counts'] = {}
    try {
      const manifest = await readStateArchive(
        source,
        {
          manifest: async (manifest) => {
            declaredCounts = manifest.counts
            if (options.mode === 'import') {
              const counts = await store.projectData.projectCounts(projectId)
              if (counts.agents + counts.phoneNumbers + counts.jobs > 0) {
                throw new ServiceError(
                  'CONFLICT',
                  `The project is not empty (${counts.agents} agents, ${counts.phoneNumbers} phone numbers, ${counts.jobs} jobs): reset first (POST /_voicedesk/reset), then import`,
                )
              }
            }
            if (manifest.schema < OLDEST_ROW_SCHEMA_VERSION || manifest.schema > ROW_SCHEMA_VERSION)
              throw new ArchiveError(
                `The archive's rows are of version ${manifest.schema}; this VoiceDesk reads versions ${OLDEST_ROW_SCHEMA_VERSION} to ${ROW_SCHEMA_VERSION}`,
              )
            if (manifest.sealed) {
              if (!manifest.passphrase)
                throw new ArchiveError('manifest.json says the secrets are sealed but not how: the archive was changed')
              if (options.passphrase === undefined) {
                throw new ServiceError(
                  'VALIDATION_ERROR',
                  "The archive's secrets are sealed under a passphrase: give it (header X-VoiceDesk-Passphrase)",
                  [{ path: 'passphrase', message: 'Required: the archive is sealed' }],
                )
              }
              try {
                seal = await PassphraseSeal.open(options.passphrase, manifest.passphrase)
              } catch (error) {
                if (error instanceof WrongPassphraseError)
                  throw new ServiceError('VALIDATION_ERROR', error.message, [{ path: 'passphrase', message: 'Does not open the archive' }])
                throw error
              }
            } else if (manifest.secretCount > 0 && !opensWith(secrets, manifest.keyCheck)) {
              throw new ServiceError(
                'VALIDATION_ERROR',
                "The archive's secrets (webhook secrets, provider tokens) are sealed with another service's key: export it again with a passphrase, and give the passphrase here",
                [{ path: 'passphrase', message: 'The archive was exported without one' }],
              )
            }
          },
          rows: async (lines) => {
            const out = createWriteStream(rowsFile, { mode: 0o600 })
            const counts = noCounts()
            let number = 0
            try {
              for await (const line of lines) {
                number += 1
                const row = parseRow(line, number)
                const key = COUNT_OF_KIND[row.kind]
                counts[key] += 1
                // Checked as they come: rows past the manifest's count are never written.
                if (counts[key] > (declaredCounts[key] ?? 0))
                  throw new ArchiveError(
                    `rows.jsonl holds more ${key} than the ${declaredCounts[key] ?? 0} the manifest counts: the archive was changed`,
                  )
                const record = row.record as unknown as Record<string, unknown>
                for (const field of SECRET_FIELDS[row.kind]) {
                  const value = record[field]
                  if (typeof value !== 'string' || value === '') continue
                  if (seal) {
                    try {
                      record[field] = secrets.encrypt(seal.open(value))
                    } catch {
                      throw new ArchiveError(
                        `rows.jsonl line ${number}: ${row.kind}.${field} is not sealed under the archive's passphrase: the archive was changed`,
                      )
                    }
                  }
                }
                if (row.kind === 'job' && row.record.mediaFile !== null && row.record.mediaFile !== undefined) {
                  if (typeof row.record.mediaFile !== 'string' || !MEDIA_NAME.test(row.record.mediaFile)) {
                    throw new ArchiveError(`rows.jsonl line ${number}: job.mediaFile is not a media name VoiceDesk gives`)
                  }
                  named.add(row.record.mediaFile)
                }
                await writeLine(out, Buffer.from(JSON.stringify(row) + '\n'))
              }
            } finally {
              out.end()
              await finished(out)
            }
            rowCounts = counts
          },
          settings: async (json) => {
            const parsed = SettingsFileSchema.safeParse(json)
            if (!parsed.success) throw new ArchiveError('settings.json is not valid: the archive was changed')
            if (options.mode === 'import') settings = importableSettings(parsed.data, secrets, seal, (message) => new ArchiveError(message))
          },
          media: async (name, size, bytes) => {
            if (!named.has(name)) throw new ArchiveError(`The archive holds media/${name}, which no job names: it was changed`)
            if ((await media.size(name)) !== undefined) {
              // Already here (a restore on the same service): names are unguessable and never reused, so the bytes are these.
              bytes.resume()
              await finished(bytes)
              return
            }
            // Listed first: if this process dies now, the next start knows the file is an unfinished import's.
            await folder.noteMedia(name)
            await media.putStream(name, bytes, { maxBytes: size })
            written.push(name)
          },
        },
        limits,
      )
      const counts = rowCounts
      for (const key of Object.values(COUNT_OF_KIND)) {
        if ((manifest.counts[key] ?? 0) !== counts[key])
          throw new ArchiveError(
            `rows.jsonl holds ${counts[key]} ${key}, the manifest says ${manifest.counts[key] ?? 0}: the archive was changed`,
          )
      }
      const { counts: inserted, mediaBefore } = await this.replaceRows(projectId, readRows(rowsFile, limits), options.owner)
      for (const [key, value] of settings?.values ?? []) await store.settings.set(key, value)
      await this.removeMedia(mediaBefore.filter((name) => !named.has(name)))
      this.options.replaced?.(projectId)
      return { counts: inserted, settings: settings?.outcome ?? { applied: [], skipped: [] } }
    } catch (error) {
      raw.unpipe()
      raw.resume()
      await this.removeMedia(written)
      if (error instanceof MediaTooLargeError)
        throw new ServiceError('PAYLOAD_TOO_LARGE', `The archive is larger than ${maxBytes} bytes, the most an import reads`)
      if (error instanceof ArchiveError)
        throw new ServiceError('VALIDATION_ERROR', error.message, [{ path: 'body', message: error.message }])
      throw error
    } finally {
      await folder.remove()
    }
  }

  private async replaceRows(
    projectId: string,
    rows: AsyncIterable<ProjectRow> | ProjectRow[],
    owner: KeyIdentity | undefined,
  ): Promise<ReplacedProject> {
    try {
      return await this.options.store.projectData.replaceProject(projectId, rows, { owner })
    } catch (error) {
      const storage = storageServiceError(error)
      if (storage || error instanceof ServiceError || error instanceof ArchiveError) throw storage ?? error
      if (error instanceof ProjectRowError) {
        const message = `rows.jsonl: ${error.message}`
        throw new ServiceError('VALIDATION_ERROR', message, [{ path: 'body', message }])
      }
      if (isUniqueViolation(error)) {
        throw new ServiceError(
          'CONFLICT',
          "The archive's ids are in use by another project on this service: import it into that project, or into another service",
        )
      }
      throw error
    }
  }

  private async removeMedia(names: Iterable<string>): Promise<void> {
    for (const name of names) await this.options.media.delete(name).catch(() => undefined)
  }
}

export function checkSnapshotName(name: string): void {
  if (!SNAPSHOT_NAME_PATTERN.test(name)) {
    const message = 'A snapshot name is 1 to 64 of A-Z a-z 0-9 . _ -'
    throw new ServiceError('VALIDATION_ERROR', `Invalid snapshot name: ${message}`, [{ path: 'name', message }])
  }
}

function opensWith(secrets: SecretBox, keyCheck: string | null): boolean {
  if (keyCheck === null) return false
  try {
    return secrets.decrypt(keyCheck) === KEY_CHECK_PLAINTEXT
  } catch {
    return false
  }
}

const ROW_KINDS = new Set(Object.keys(COUNT_OF_KIND))

/** One line of rows.jsonl: a row of a kind we know, with a record object (the store validates the record itself). */
function parseRow(line: string, number: number): ProjectRow {
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch {
    throw new ArchiveError(`rows.jsonl line ${number} is not JSON: the archive was changed or damaged`)
  }
  const row = value as { kind?: unknown; record?: unknown }
  if (
    typeof row !== 'object' ||
    row === null ||
    typeof row.kind !== 'string' ||
    !ROW_KINDS.has(row.kind) ||
    typeof row.record !== 'object' ||
    row.record === null
  ) {
    throw new ArchiveError(`rows.jsonl line ${number} is not a row ({ kind, record }) of a kind VoiceDesk writes`)
  }
  return value as ProjectRow
}

/** The rows the import checked and wrote to `file`, one per line (lines the archive's limits bound). */
async function* readRows(file: string, limits: ArchiveLimits): AsyncIterable<ProjectRow> {
  for await (const line of linesOf(createReadStream(file), limits.maxLineBytes, limits.maxRows)) {
    if (line !== '') yield JSON.parse(line) as ProjectRow
  }
}

async function writeLine(out: WriteStream, line: Buffer): Promise<void> {
  if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
}
