import { randomBytes } from 'node:crypto'
import { SIP_USER_NAME, SIP_USER_NAME_RULE } from '../../shared/api/sip-users'
import type { Store } from '../../store/ports'
import { ServiceError } from './service-error'
import type { Telephony } from './telephony'

export interface SipUsersDeps {
  store: Pick<Store, 'sipUsers'>
  now: () => Date
  telephony: Pick<Telephony, 'ha1Of' | 'registration' | 'forget'>
}

export interface SipUserView {
  name: string
  createdAt: string
  registered: boolean
  contact?: string
  registeredUntil?: string
}

/** A new random password: 24 characters of base64url (144 bits), shown once. */
function newPassword(): string {
  return randomBytes(18).toString('base64url')
}

function checkedName(name: string): string {
  if (!SIP_USER_NAME.test(name))
    throw new ServiceError('VALIDATION_ERROR', `A SIP user's name is ${SIP_USER_NAME_RULE}, not ${JSON.stringify(name)}`, [
      { path: 'name', message: `Must be ${SIP_USER_NAME_RULE}` },
    ])
  return name
}

function noSuchUser(name: string): ServiceError {
  return new ServiceError('NOT_FOUND', `No SIP user named ${JSON.stringify(name)}`)
}

/** Every SIP user by name, with where its softphone is registered now (never a password or a hash). */
export async function listSipUsers(deps: SipUsersDeps): Promise<{ users: SipUserView[] }> {
  const users = await deps.store.sipUsers.list()
  return {
    users: users.map((user) => {
      const registration = deps.telephony.registration(user.name)
      return {
        name: user.name,
        createdAt: user.createdAt,
        registered: registration !== undefined,
        ...(registration ? { contact: registration.contact, registeredUntil: registration.registeredUntil } : {}),
      }
    }),
  }
}

/** Adds a SIP user with a new random password, answered once (only its digest HA1 is kept). */
export async function addSipUser(deps: SipUsersDeps, name: string): Promise<{ name: string; password: string }> {
  checkedName(name)
  const password = newPassword()
  const at = deps.now().toISOString()
  const added = await deps.store.sipUsers.insert({ name, ha1Md5: deps.telephony.ha1Of(name, password), createdAt: at, updatedAt: at })
  if (!added) throw new ServiceError('CONFLICT', `A SIP user named ${JSON.stringify(name)} exists already (reset its password instead)`)
  return { name, password }
}

/** A new random password for the user, answered once; its softphone must register again with it. */
export async function resetSipUserPassword(deps: SipUsersDeps, name: string): Promise<{ name: string; password: string }> {
  checkedName(name)
  const password = newPassword()
  const changed = await deps.store.sipUsers.setPassword(name, deps.telephony.ha1Of(name, password), deps.now().toISOString())
  if (!changed) throw noSuchUser(name)
  deps.telephony.forget(name)
  return { name, password }
}

export async function removeSipUser(deps: SipUsersDeps, name: string): Promise<{ removed: true }> {
  checkedName(name)
  if (!(await deps.store.sipUsers.remove(name))) throw noSuchUser(name)
  deps.telephony.forget(name)
  return { removed: true }
}
