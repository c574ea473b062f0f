import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { JobError } from '../../src/jobs/job-error'
import { JOB_ERROR_MEANINGS } from '../../src/shared/api/job-error-codes'

describe('job error codes', () => {
  it('are the only codes a JobError takes (a type error otherwise)', () => {
    // @ts-expect-error: not a member of JobErrorCode
    const unknown = new JobError('SOMETHING_ELSE', 'not a code of the contract')
    expect(unknown.code).toBe('SOMETHING_ELSE')
    expect(new JobError('CRASHED', 'x').code).toBe('CRASHED')
  })

  it('are listed in docs/api.md (Jobs), each with the meaning the contract gives it', () => {
    const docs = readFileSync(join(import.meta.dirname, '../../docs/api.md'), 'utf8')
    const jobs = docs.slice(docs.indexOf('\n## Jobs'), docs.indexOf('### The job object'))
    const rows = Object.fromEntries([...jobs.matchAll(/^\| ([A-Z_]+) \| (.+) \|$/gm)].map(([, code, meaning]) => [code, meaning]))
    expect(rows).toEqual(JOB_ERROR_MEANINGS)
  })
})
