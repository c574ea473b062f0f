import { describe, expect, it } from 'vitest'
import { ScenarioSchema, TestSuiteSchema } from '../../src/shared/api/test-suites'
import { zodIssues } from '../../src/renderer/src/features/agents/zod-issues'

/* The Tests tab's words for a scenario or suite the contract refuses: where, and why. */

describe('zod issues in words', () => {
  it('names the path of each issue', () => {
    const result = TestSuiteSchema.safeParse({ scenarios: [{ name: '', caller: { say: ['Hi'] }, expect: { maxTurns: 0 } }] })
    expect(result.success).toBe(false)
    expect(zodIssues(result.error!)).toEqual([
      'scenarios.0.name: Too small: expected string to have >=1 characters',
      'scenarios.0.expect.maxTurns: Too small: expected number to be >=1',
    ])
  })

  it('says what each shape of a caller wanted when it fits neither', () => {
    const result = ScenarioSchema.safeParse({ name: 'a', caller: {}, expect: {} })
    expect(zodIssues(result.error!)).toEqual([
      'caller: Invalid input, either caller.say: Invalid input: expected array, received undefined, or caller.answers: Invalid input: expected record, received undefined',
    ])
  })
})
