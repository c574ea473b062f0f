import { randomBytes } from 'node:crypto'
import { afterAll } from 'vitest'
import type { Store } from '../../src/store/ports'
import type { NewDelivery, PhoneNumberRecord, VoiceAgentRecord } from '../../src/store/records'
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster'

/*
 * Records and accounts for tests that write straight into a store (the store contract, the
 * project-data port): every field of a record set here once, so a new field is added once.
 * Callers give what their test is about.
 */

export const P1 = 'project-1'
export const P2 = 'project-2'

/** A fixed time, `second` seconds in: rows sort the same on every run. */
export const at = (second: number): string => `2024-05-01T10:00:${String(second).padStart(2, '0')}.000Z`

const hex = () => randomBytes(6).toString('hex')

/** Two projects (P1 the default), one local user, a key in each project (key-1, key-2). */
export async function seedAccounts(store: Store): Promise<void> {
  await store.accounts.insertProject({ id: P1, name: 'Default', isDefault: true, createdAt: at(0) })
  await store.accounts.insertProject({ id: P2, name: 'Other', isDefault: false, createdAt: at(1) })
  await store.accounts.insertLocalUser('user-1', 'Local', at(0))
  await store.accounts.insertKey({
    id: 'key-1',
    projectId: P1,
    userId: 'user-1',
    name: 'first',
    keyHash: 'hash-1',
    keyHint: 'vd_abc…wxyz',
    createdAt: at(0),
  })
  await store.accounts.insertKey({
    id: 'key-2',
    projectId: P2,
    userId: 'user-1',
    name: 'second',
    keyHash: 'hash-2',
    keyHint: 'vd_def…wxyz',
    createdAt: at(1),
  })
}

export function agentRecord(fields: Partial<VoiceAgentRecord> = {}): VoiceAgentRecord {
  return {
    id: `agent-${hex()}`,
    projectId: P1,
    apiKeyId: 'key-1',
    agentName: 'Support desk',
    description: 'Answers questions',
    greetingMessage: 'Hello!',
    preamble: 'Be kind.',
    lang: 'en',
    pokeMessages: ['Still there?'],
    realTime: true,
    silenceThreshold: 700,
    interrupt: false,
    endOfTurnSilenceMs: 600,
    maxCallerTurnSeconds: 15,
    outcome: 'summary',
    outcomeResponseShape: { resolved: 'boolean' },
    voiceId: 'en-1',
    tools: { smartCallEnd: true },
    params: { region: 'eu' },
    webhookUrl: 'https://example.test/hook',
    webhookAuthKey: 'X-Key',
    webhookAuthSecret: 'cipher',
    sourceId: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  }
}

/** A number with a fresh E.164 number each call (give `number` to pin it). */
export function phoneNumberRecord(fields: Partial<PhoneNumberRecord> = {}): PhoneNumberRecord {
  return {
    id: `number-${hex()}`,
    projectId: P1,
    apiKeyId: 'key-1',
    userId: 'user-1',
    number: `+1555${String(randomBytes(3).readUIntBE(0, 3)).padStart(8, '0')}`,
    label: 'Front desk',
    type: 'TELEPHONY',
    providerAccountSid: 'AC1',
    providerAuthToken: 'cipher',
    voiceAgentId: null,
    createdAt: at(0),
    updatedAt: at(0),
    ...fields,
  }
}

export function newDelivery(fields: Partial<NewDelivery> = {}): NewDelivery {
  return {
    id: `delivery-${hex()}`,
    projectId: P1,
    event: 'job.completed',
    jobId: null,
    url: 'https://example.test/hook',
    authKey: null,
    authSecret: null,
    payload: '{"event":"job.completed"}',
    createdAt: at(0),
    dueAt: 0,
    ...fields,
  }
}

/** One throwaway PostgreSQL cluster for the test file, started when first asked for, stopped after its last test. */
export function lazyPostgresCluster(): () => Promise<PostgresCluster> {
  let cluster: Promise<PostgresCluster> | undefined
  // Patience beyond the 60 s default: the stop waits up to 25 s for pg_ctl, then removes the
  // cluster's files, and on CI's disk, beside other files' writes, that once took longer.
  afterAll(async () => {
    if (cluster) await (await cluster).stop()
  }, 150_000)
  return () => (cluster ??= startPostgresCluster())
}
