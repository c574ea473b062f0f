import type { Runtime } from '../../src/service/runtime'
import type { Repositories } from '../../src/store/ports'
import type { JobRecord } from '../../src/store/records'
import { jobRecord } from './job-record'

/**
 * Writes a job straight into the store, as a finished transcription or translation would
 * be: VoiceDesk has no speech-to-text engine yet, so tests and benchmarks seed such jobs.
 * Give `apiKeyId` when seeding many, to spare a key lookup per job, and a transaction's handle
 * as `repositories` to write many in one commit.
 */
export async function seedJob(
  runtime: Runtime,
  fields: Partial<JobRecord> = {},
  repositories: Repositories = runtime.store,
): Promise<JobRecord> {
  const record = jobRecord({
    projectId: runtime.bootstrap.projectId,
    apiKeyId: fields.apiKeyId ?? (await repositories.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id,
    userId: runtime.bootstrap.userId,
    ...fields,
  })
  await repositories.jobs.insert(record)
  return record
}

/** Seeds `count` jobs in one transaction, in order (`fieldsOf(index)` for each); answers them in that order. */
export function seedJobs(
  runtime: Runtime,
  count: number,
  fieldsOf: (index: number) => Partial<JobRecord> = () => ({}),
): Promise<JobRecord[]> {
  return runtime.store.transaction(async (tx) => {
    const apiKeyId = (await tx.accounts.listKeys(runtime.bootstrap.projectId))[0]!.id
    const jobs: JobRecord[] = []
    for (let index = 0; index < count; index += 1) jobs.push(await seedJob(runtime, { apiKeyId, ...fieldsOf(index) }, tx))
    return jobs
  })
}
