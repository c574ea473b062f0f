import { findRunningServices } from '../compose/running-services'
import { appKeyIdOf, bootstrapAccounts, createApiKey, FIXED_KEY_NAME, listApiKeys, revokeApiKey } from '../ops/api-keys'
import { refuseExtraArguments, UsageError, type Values } from './args'
import { say } from './say'
import { openStorageStore, storageOf, type Storage } from './storage'

/** Where the key just made will work: the services using this folder now, or how to start one (openStorage has warned then). */
function servingNote(storage: Storage): string {
  if (storage.kind === 'team') return 'It works at once on every instance using this database.'
  const { dataDir } = storage
  const services = findRunningServices(dataDir.path)
  if (services.length > 0)
    return `It works at once on the service using this folder (${services.map((service) => service.url).join(', ')}).`
  return `It works once a service runs with --data-dir ${dataDir.path}`
}

export async function keys(values: Values, positionals: string[]): Promise<void> {
  const [action, id] = positionals
  refuseExtraArguments(
    'keys',
    positionals,
    action === 'revoke' ? 2 : 1,
    action === 'revoke' ? 'one key id' : 'create, list or revoke <key id>',
  )
  if (values.name !== undefined && action !== 'create') throw new UsageError(`--name goes with "keys create" only`)
  const storage = storageOf(values)
  const store = await openStorageStore(storage)
  try {
    const context = { store, now: () => new Date() }
    // No default key here: the key the operator creates is the first one they see.
    const { projectId } = await bootstrapAccounts(store, context.now(), undefined, { createKey: false })
    if (action === 'create') {
      const { record, key } = await createApiKey(context, projectId, values.name ?? 'CLI key')
      const place = storage.kind === 'folder' ? `the data folder ${storage.dataDir.path}` : `the database ${storage.label}`
      say(`Created key ${record.id} (${record.name}) in ${place}. Shown only this once:\n${key}\n${servingNote(storage)}`)
    } else if (action === 'list') {
      const appKeyId = await appKeyIdOf(store)
      for (const key of await listApiKeys(context, projectId)) {
        const state = key.revokedAt ? `revoked ${key.revokedAt}` : `last used ${key.lastUsedAt ?? 'never'}`
        const origin =
          key.id === appKeyId
            ? '  (the app itself acts with it; it works over no HTTP)'
            : key.name === FIXED_KEY_NAME
              ? '  (set by VOICEDESK_API_KEY)'
              : ''
        say(`${key.id}  ${key.keyHint}  ${key.name}  created ${key.createdAt}  ${state}${origin}`)
      }
    } else if (action === 'revoke') {
      if (!id) throw new UsageError('keys revoke needs the id of the key (see "voicedesk keys list")')
      await revokeApiKey(context, id)
      say(`Revoked key ${id}`)
    } else {
      throw new UsageError(
        action
          ? `Unknown keys action ${JSON.stringify(action)}: use create, list or revoke <key id>`
          : 'keys needs one of: create, list, revoke <key id>',
      )
    }
  } finally {
    await store.close()
  }
}
