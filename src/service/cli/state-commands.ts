import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readFile, rename, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { SNAPSHOT_NAME_PATTERN, type StateCounts } from '../../shared/api/state'
import { counted } from '../../shared/text/counted'
import { FileMediaStore } from '../../store/file-media-store'
import { MEDIA_FOLDER, SNAPSHOTS_FOLDER } from '../compose/data-folder'
import { bootstrapAccounts, ensureAppIdentity } from '../ops/api-keys'
import { ServiceError } from '../ops/service-error'
import { VERSION } from '../compose/config'
import { ProjectState } from '../state/project-state'
import { FolderSnapshotShelf, MediaSnapshotShelf } from '../state/snapshot-shelf'
import { expandHome, refuseExtraArguments, UsageError, type Values } from './args'
import { say } from './say'
import { openStorage, secretsOf, storageOf } from './storage'
import { present } from '../../shared/present'

/** export, import, snapshot, restore, snapshots and reset: the default project's state, on the storage a command names. */

/** The state commands, with the one argument each takes (none for snapshots and reset). */
export const STATE_COMMANDS: Record<string, string | undefined> = {
  export: 'FILE',
  import: 'FILE',
  snapshot: 'NAME',
  restore: 'NAME',
  snapshots: undefined,
  reset: undefined,
}

const STATE_COUNT_NOUNS: Record<keyof StateCounts, [one: string, other: string]> = {
  agents: ['agent', 'agents'],
  agentVersions: ['agent version', 'agent versions'],
  phoneNumbers: ['phone number', 'phone numbers'],
  jobs: ['job', 'jobs'],
  deliveries: ['webhook delivery', 'webhook deliveries'],
  attempts: ['delivery attempt', 'delivery attempts'],
  voiceDictionaries: ['voice dictionary', 'voice dictionaries'],
  dictionaryActivations: ['dictionary activation', 'dictionary activations'],
}

/** "1 agent, 2 phone numbers, 0 jobs, …" (an archive's manifest may lack a kind: none of it). */
function countsText(counts: Partial<StateCounts>): string {
  return (Object.keys(STATE_COUNT_NOUNS) as (keyof StateCounts)[])
    .map((kind) => counted(counts[kind] ?? 0, ...STATE_COUNT_NOUNS[kind]))
    .join(', ')
}

/** --passphrase-file: the file's first line (a passphrase never goes on the command line, where `ps` shows it). */
async function passphraseFrom(values: Values, forExport: boolean): Promise<string | undefined> {
  const file = values['passphrase-file']
  if (file === undefined) return undefined
  let text: string
  try {
    text = await readFile(resolve(expandHome(file)), 'utf8')
  } catch (error) {
    throw new UsageError(
      `--passphrase-file ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    )
  }
  const passphrase = text.split(/\r?\n/)[0] ?? ''
  if (passphrase.length < (forExport ? 8 : 1))
    throw new UsageError(`--passphrase-file ${file}: its first line must hold the passphrase${forExport ? ' (8 characters or more)' : ''}`)
  return passphrase
}

export async function stateCommand(command: string, values: Values, positionals: string[]): Promise<void> {
  const argument = STATE_COMMANDS[command]
  refuseExtraArguments(command, positionals, argument ? 1 : 0, argument ? `one ${argument}` : 'no arguments')
  // '' for the commands without an argument (refused above when given one).
  const [given = ''] = positionals
  if (argument && !given) throw new UsageError(`${command} needs ${argument} (see voicedesk --help)`)
  if (command === 'reset' && !values.yes)
    throw new UsageError('reset empties the default project (agents, numbers, jobs, deliveries; keys stay): add --yes to do it')
  if ((command === 'snapshot' || command === 'restore') && !SNAPSHOT_NAME_PATTERN.test(given)) {
    throw new UsageError(`Snapshot name ${JSON.stringify(given)}: a name is 1 to 64 of A-Z a-z 0-9 . _ -`)
  }
  const passphrase = command === 'export' || command === 'import' ? await passphraseFrom(values, command === 'export') : undefined
  const storage = storageOf(values)
  const { store, sharedMedia } = await openStorage(storage, command === 'export' ? 'export' : command === 'snapshots' ? 'list' : undefined)
  try {
    const now = () => new Date()
    const bootstrap = await bootstrapAccounts(store, now(), undefined, { createKey: false })
    const caller = await ensureAppIdentity(store, now(), bootstrap)
    const folder = storage.kind === 'folder' ? storage.dataDir.path : undefined
    // A store without shared media is a data folder's.
    const media = sharedMedia ?? new FileMediaStore(join(present(folder, 'the data folder'), MEDIA_FOLDER))
    if (folder) await mkdir(join(folder, MEDIA_FOLDER), { recursive: true, mode: 0o700 })
    const state = new ProjectState({
      store,
      media,
      storage: storage.kind === 'folder' ? storage.dataDir.path : storage.label,
      secrets: secretsOf(storage),
      shelf: folder ? new FolderSnapshotShelf(join(folder, SNAPSHOTS_FOLDER)) : new MediaSnapshotShelf(media, store.settings),
      version: VERSION,
      now,
    })
    const where = storage.kind === 'folder' ? `the data folder ${storage.dataDir.path}` : `the database ${storage.label}`
    if (command === 'export') {
      const file = resolve(expandHome(given))
      const { stream, manifest } = await state.exportArchive(caller.projectId, passphrase)
      const aside = `${file}.partial`
      try {
        await pipeline(stream, createWriteStream(aside, { mode: 0o600 }))
        await rename(aside, file)
      } catch (error) {
        await rm(aside, { force: true })
        throw error
      }
      say(`Exported ${countsText(manifest.counts)} from ${where} to ${file}${passphrase ? ' (secrets sealed under the passphrase)' : ''}.`)
    } else if (command === 'import') {
      const file = resolve(expandHome(given))
      const source = createReadStream(file)
      await new Promise<void>((opened, failed) => {
        source.once('open', () => opened())
        source.once('error', (error) =>
          failed(new UsageError(`${given}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : error.message}`)),
        )
      })
      const outcome = await state.importArchive(caller.projectId, source, { owner: caller, passphrase }).catch((error: unknown) => {
        // A file that is not a whole VoiceDesk archive (or past the limits) is the user's input: a usage error, exit 2.
        if (error instanceof ServiceError && (error.code === 'PAYLOAD_TOO_LARGE' || error.details.some((detail) => detail.path === 'body')))
          throw new UsageError(`${given}: ${error.message}`)
        throw error
      })
      const settings = outcome.settings.skipped.length ? `; settings left as they were: ${outcome.settings.skipped.join(', ')}` : ''
      say(`Imported ${countsText(outcome.counts)} into ${where}${settings}.`)
    } else if (command === 'snapshot') {
      const info = await state.takeSnapshot(caller.projectId, given)
      say(`Snapshot ${info.name}: ${countsText(info.counts)}, ${counted(info.sizeBytes, 'byte', 'bytes')}.`)
    } else if (command === 'restore') {
      const outcome = await state.restoreSnapshot(caller.projectId, given, caller)
      say(`Restored snapshot ${given}: ${countsText(outcome.counts)}.`)
    } else if (command === 'snapshots') {
      const snapshots = await state.listSnapshots(caller.projectId)
      if (snapshots.length === 0) say(`No snapshots in ${where}.`)
      for (const info of snapshots)
        say(`${info.name}  ${info.createdAt}  ${counted(info.sizeBytes, 'byte', 'bytes')}  ${countsText(info.counts)}`)
    } else {
      const { removed } = await state.reset(caller.projectId)
      say(`Reset the default project of ${where}: removed ${countsText(removed)}; keys stay.`)
    }
  } finally {
    await store.close()
  }
}
