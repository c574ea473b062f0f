import { addSipUser, listSipUsers, removeSipUser, resetSipUserPassword, type SipUsersDeps } from '../ops/sip-users'
import { ServiceError } from '../ops/service-error'
import { ha1Of } from '../sip/digest-auth'
import { refuseExtraArguments, UsageError, type Values } from './args'
import { say } from './say'
import { openStorageStore, storageOf } from './storage'

const ACTIONS = 'add NAME, list, reset NAME or remove NAME'

/**
 * `voicedesk sip-user add|list|reset|remove`: the SIP line's users (service-wide). A password is
 * printed once, at add and at reset; only its digest HA1 is stored. A running service reads the
 * users at each REGISTER, so a new user or password works at once (its registrations are in
 * that service's memory: `list` here cannot show them; the app's SIP settings do).
 */
export async function sipUser(values: Values, positionals: string[]): Promise<void> {
  const [action, name] = positionals
  refuseExtraArguments('sip-user', positionals, action === 'list' ? 1 : 2, action === 'list' ? 'no more arguments' : 'one NAME')
  if (action !== 'list' && action !== 'add' && action !== 'reset' && action !== 'remove') {
    throw new UsageError(action ? `Unknown sip-user action ${JSON.stringify(action)}: use ${ACTIONS}` : `sip-user needs one of: ${ACTIONS}`)
  }
  if (action !== 'list' && !name)
    throw new UsageError(`sip-user ${action} needs the user's NAME (a number such as +15551234567, or a name)`)
  const store = await openStorageStore(storageOf(values))
  try {
    const deps: SipUsersDeps = {
      store,
      now: () => new Date(),
      telephony: { ha1Of, registration: () => undefined, forget: () => undefined },
    }
    await run(deps, action, name ?? '')
  } catch (error) {
    // A name the rules refuse is a usage mistake (exit 2); an unknown or taken name is the data's answer (exit 1).
    if (error instanceof ServiceError && error.code === 'VALIDATION_ERROR') throw new UsageError(error.message)
    throw error
  } finally {
    await store.close()
  }
}

async function run(deps: SipUsersDeps, action: 'add' | 'list' | 'reset' | 'remove', name: string): Promise<void> {
  switch (action) {
    case 'add': {
      const { password } = await addSipUser(deps, name)
      say(`Added SIP user ${name}. Its password, shown only this once:\n${password}\n${softphoneHint(name)}`)
      return
    }
    case 'reset': {
      const { password } = await resetSipUserPassword(deps, name)
      say(`New password for SIP user ${name}, shown only this once (the old one no longer works):\n${password}`)
      return
    }
    case 'remove':
      await removeSipUser(deps, name)
      say(`Removed SIP user ${name}`)
      return
    case 'list': {
      const { users } = await listSipUsers(deps)
      if (users.length === 0) say('No SIP users yet: add one with "voicedesk sip-user add NAME"')
      for (const user of users) say(`${user.name}  created ${user.createdAt}`)
      return
    }
  }
}

function softphoneHint(name: string): string {
  return `In the softphone: user ${name}, this password, domain or registrar = the SIP line's address (127.0.0.1:5060 by default).`
}
