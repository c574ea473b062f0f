import { randomUUID } from 'node:crypto'
import { isPossiblePhoneNumber } from 'libphonenumber-js/min'
import type {
  AddPhoneNumberBody,
  AssignNumberBody,
  ListPhoneNumbersQuery,
  PhoneNumber,
  UnassignNumberBody,
} from '../../shared/api/phone-numbers'
import { isUniqueViolation } from '../../store/constraint-errors'
import type { Repositories } from '../../store/ports'
import type { PhoneNumberView } from '../../store/records'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { invalid, notFound, ServiceError } from './service-error'
import { present } from '../../shared/present'

/**
 * Where a call to `number` goes: while the SIP line listens, the number at the line's bound
 * address (what a softphone dials: `sip:+14155550100@127.0.0.1:5060`); otherwise the stored SIP settings'.
 */
function originationUriOf(context: OpsContext, number: string): string {
  const line = context.telephony.boundAddress()
  if (!line) return context.sip.originationUri
  return `sip:${number}@${line.host.includes(':') ? `[${line.host}]` : line.host}:${line.port}`
}

export function toPhoneNumberDto(context: OpsContext, view: PhoneNumberView): PhoneNumber {
  return {
    id: view.id,
    number: view.number,
    label: view.label,
    type: view.type,
    userId: view.userId,
    sipInboundConfigs: { originationUri: originationUriOf(context, view.number) },
    sipOutboundConfigs: {
      address: context.sip.outboundAddress,
      transportType: context.sip.transportType,
      customHeaders: context.sip.customHeaders,
    },
    voiceAgentId: view.voiceAgentId,
    voiceAgent: view.voiceAgentId && view.voiceAgentName !== null ? { id: view.voiceAgentId, name: view.voiceAgentName } : null,
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  }
}

/** The schema already checked the E.164 form; this checks the length against the country's numbering plan. */
function requirePossibleNumber(number: string): void {
  if (!isPossiblePhoneNumber(number)) {
    throw invalid('phoneNumber', `${number} is not a possible number for its country code`)
  }
}

/** `fixedId`: a fixed id (a seed file's); a new one by default. */
export async function addPhoneNumber(
  context: OpsContext,
  caller: Caller,
  body: AddPhoneNumberBody,
  fixedId?: string,
): Promise<PhoneNumber> {
  requirePossibleNumber(body.phoneNumber)
  const alreadyRegistered = () =>
    new ServiceError('CONFLICT', `${body.phoneNumber} is already registered in this project`, [
      { path: 'phoneNumber', message: 'Already registered' },
    ])
  try {
    return await context.store.transaction(async (tx) => {
      if (await tx.phoneNumbers.findByNumber(body.phoneNumber, caller.projectId)) throw alreadyRegistered()
      const at = timestamp(context)
      const id = fixedId ?? randomUUID()
      await tx.phoneNumbers.insert({
        id,
        projectId: caller.projectId,
        apiKeyId: caller.apiKeyId,
        userId: caller.userId,
        number: body.phoneNumber,
        label: body.label,
        type: body.type,
        providerAccountSid: body.providerAccountSid,
        providerAuthToken: context.secrets.encrypt(body.providerAuthToken),
        voiceAgentId: null,
        createdAt: at,
        updatedAt: at,
      })
      return toPhoneNumberDto(context, present(await tx.phoneNumbers.findInProject(id, caller.projectId), `phone number ${id}, just added`))
    })
  } catch (error) {
    // Two adds of one number at once (two instances on PostgreSQL): the second meets the unique index.
    if (isUniqueViolation(error)) throw alreadyRegistered()
    throw error
  }
}

async function requireNumberById(context: OpsContext, caller: Caller, id: string): Promise<PhoneNumberView> {
  const view = await context.store.phoneNumbers.findInProject(id, caller.projectId)
  if (!view) throw notFound('phone number', id)
  return view
}

async function requireNumber(repositories: Repositories, caller: Caller, number: string): Promise<PhoneNumberView> {
  const view = await repositories.phoneNumbers.findByNumber(number, caller.projectId)
  if (!view) throw new ServiceError('NOT_FOUND', `${number} is not registered in this project`)
  return view
}

export async function getPhoneNumber(context: OpsContext, caller: Caller, id: string): Promise<PhoneNumber> {
  return toPhoneNumberDto(context, await requireNumberById(context, caller, id))
}

export async function listPhoneNumbers(context: OpsContext, caller: Caller, query: ListPhoneNumbersQuery) {
  const { records, total, filtered } = await context.store.phoneNumbers.list(
    caller.projectId,
    { search: query.search || undefined, voiceAgentId: query.voiceAgentId || undefined },
    query.take,
    (query.skip - 1) * query.take,
  )
  return { phoneNumbers: records.map((view) => toPhoneNumberDto(context, view)), total, filtered }
}

/** Assigns a number to an agent. Already on that agent: unchanged. On another agent: it moves. */
export function assignPhoneNumber(context: OpsContext, caller: Caller, body: AssignNumberBody): Promise<PhoneNumber> {
  return context.store.transaction(async (tx) => {
    if (!(await tx.voiceAgents.findInProject(body.voiceAgentId, caller.projectId))) throw notFound('voice agent', body.voiceAgentId)
    const view = await requireNumber(tx, caller, body.phoneNumber)
    if (view.voiceAgentId !== body.voiceAgentId) await tx.phoneNumbers.setAgent(view.id, body.voiceAgentId, timestamp(context))
    return toPhoneNumberDto(context, present(await tx.phoneNumbers.findInProject(view.id, caller.projectId), `phone number ${view.id}`))
  })
}

/** Takes a number off its agent. A number that is not assigned is answered unchanged. */
export function unassignPhoneNumber(context: OpsContext, caller: Caller, body: UnassignNumberBody): Promise<PhoneNumber> {
  return context.store.transaction(async (tx) => {
    const view = await requireNumber(tx, caller, body.phoneNumber)
    if (view.voiceAgentId !== null) await tx.phoneNumbers.setAgent(view.id, null, timestamp(context))
    return toPhoneNumberDto(context, present(await tx.phoneNumbers.findInProject(view.id, caller.projectId), `phone number ${view.id}`))
  })
}

export async function deletePhoneNumber(context: OpsContext, caller: Caller, id: string): Promise<{ id: string; deleted: true }> {
  if (!(await context.store.phoneNumbers.remove(id, caller.projectId))) throw notFound('phone number', id)
  return { id, deleted: true }
}
