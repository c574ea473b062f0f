import { randomUUID } from 'node:crypto'
import { isPossiblePhoneNumber } from 'libphonenumber-js/min'
import type { AddPhoneNumberBody, AssignNumberBody, ListPhoneNumbersQuery, PhoneNumber, UnassignNumberBody } from '../../shared/api/phone-numbers'
import type { PhoneNumberView } from '../../store/phone-numbers-repository'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { invalid, notFound, ServiceError } from './service-error'

export function toPhoneNumberDto(context: OpsContext, view: PhoneNumberView): PhoneNumber {
  return {
    id: view.id,
    number: view.number,
    label: view.label,
    type: view.type,
    userId: view.userId,
    sipInboundConfigs: { originationUri: context.sip.originationUri },
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
    throw invalid('body.phoneNumber', `${number} is not a possible number for its country code`)
  }
}

export function addPhoneNumber(context: OpsContext, caller: Caller, body: AddPhoneNumberBody): PhoneNumber {
  requirePossibleNumber(body.phoneNumber)
  return context.store.transaction(() => {
    if (context.store.phoneNumbers.findByNumber(body.phoneNumber, caller.projectId)) {
      throw new ServiceError('CONFLICT', `${body.phoneNumber} is already registered in this project`, [{ path: 'body.phoneNumber', message: 'Already registered' }])
    }
    const at = timestamp(context)
    const id = randomUUID()
    context.store.phoneNumbers.insert({
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
    return toPhoneNumberDto(context, context.store.phoneNumbers.findInProject(id, caller.projectId)!)
  })
}

function requireNumberById(context: OpsContext, caller: Caller, id: string): PhoneNumberView {
  const view = context.store.phoneNumbers.findInProject(id, caller.projectId)
  if (!view) throw notFound('phone number', id)
  return view
}

function requireNumber(context: OpsContext, caller: Caller, number: string): PhoneNumberView {
  const view = context.store.phoneNumbers.findByNumber(number, caller.projectId)
  if (!view) throw new ServiceError('NOT_FOUND', `${number} is not registered in this project`)
  return view
}

export function getPhoneNumber(context: OpsContext, caller: Caller, id: string): PhoneNumber {
  return toPhoneNumberDto(context, requireNumberById(context, caller, id))
}

export function listPhoneNumbers(context: OpsContext, caller: Caller, query: ListPhoneNumbersQuery) {
  const { records, total, filtered } = context.store.phoneNumbers.list(
    caller.projectId,
    { search: query.search || undefined, voiceAgentId: query.voiceAgentId || undefined },
    query.take,
    (query.skip - 1) * query.take,
  )
  return { phoneNumbers: records.map((view) => toPhoneNumberDto(context, view)), total, filtered }
}

/** Assigns a number to an agent. Already on that agent: unchanged. On another agent: it moves. */
export function assignPhoneNumber(context: OpsContext, caller: Caller, body: AssignNumberBody): PhoneNumber {
  return context.store.transaction(() => {
    if (!context.store.voiceAgents.findInProject(body.voiceAgentId, caller.projectId)) throw notFound('voice agent', body.voiceAgentId)
    const view = requireNumber(context, caller, body.phoneNumber)
    if (view.voiceAgentId !== body.voiceAgentId) context.store.phoneNumbers.setAgent(view.id, body.voiceAgentId, timestamp(context))
    return toPhoneNumberDto(context, context.store.phoneNumbers.findInProject(view.id, caller.projectId)!)
  })
}

/** Takes a number off its agent. A number that is not assigned is answered unchanged. */
export function unassignPhoneNumber(context: OpsContext, caller: Caller, body: UnassignNumberBody): PhoneNumber {
  return context.store.transaction(() => {
    const view = requireNumber(context, caller, body.phoneNumber)
    if (view.voiceAgentId !== null) context.store.phoneNumbers.setAgent(view.id, null, timestamp(context))
    return toPhoneNumberDto(context, context.store.phoneNumbers.findInProject(view.id, caller.projectId)!)
  })
}

export function deletePhoneNumber(context: OpsContext, caller: Caller, id: string): { id: string; deleted: true } {
  if (!context.store.phoneNumbers.remove(id, caller.projectId)) throw notFound('phone number', id)
  return { id, deleted: true }
}
