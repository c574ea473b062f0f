/**
 * The operator UI's jobs.list: a conversation's row carries its glance (start, ending, outcome
 * complete / partial / none with its first two filled fields), read from the state the list
 * already loads; every other job's row is /v1's list item, field for field. Run through the
 * handler table of a real runtime on a real SQLite file.
 */
import { describe, expect, it } from 'vitest'
import { invokeOperation } from '../../src/service/operator/invoke-operation'
import { conversationNotStarted } from '../../src/service/ops/conversations'
import { IPC_OPERATIONS, type IpcOutput } from '../../src/shared/ipc/operations'
import { seedJob } from '../helpers/seed-jobs'
import { startTestService } from '../helpers/test-service'

const STARTED = '2026-11-20T10:00:00.000Z'

function callState(fields: Record<string, unknown>) {
  return {
    ...conversationNotStarted('offline'),
    startedAt: STARTED,
    endedAt: '2026-11-20T10:01:05.000Z',
    endReason: 'caller-hangup',
    transcript: [{ role: 'agent', content: 'Hello', startTime: 0, endTime: 1.5 }],
    ...fields,
  }
}

describe('jobs.list in the operator UI', () => {
  it('gives each conversation its glance and leaves other jobs as /v1 lists them', async () => {
    const { runtime } = await startTestService()
    const seeded = {
      tts: await seedJob(runtime, { type: 'TTS', title: 'A sentence', text: 'A sentence', createdAt: '2026-11-20T09:00:00.000Z' }),
      complete: await seedJob(runtime, {
        type: 'CONVERSATION',
        status: 'COMPLETED',
        agentDetails: 'Table Booker',
        usageSeconds: 65,
        createdAt: '2026-11-20T09:01:00.000Z',
        jobResponse: callState({
          endReason: 'smart-end',
          // Empty values are not "filled": the glance skips them.
          outcomeResult: { notes: '', customerName: 'Sara   Haddad', extras: [], guests: 4, seating: 'terrace', long: 'x'.repeat(200) },
          outcomeComplete: true,
        }),
      }),
      partial: await seedJob(runtime, {
        type: 'CONVERSATION',
        status: 'COMPLETED',
        createdAt: '2026-11-20T09:02:00.000Z',
        jobResponse: callState({
          outcomeResult: { customerName: 'Omar', guests: null },
          outcomeComplete: false,
          outcomeProblems: ['/ missing guests'],
        }),
      }),
      nothing: await seedJob(runtime, {
        type: 'CONVERSATION',
        status: 'COMPLETED',
        createdAt: '2026-11-20T09:03:00.000Z',
        jobResponse: callState({ endReason: 'silence', outcomeResult: {}, outcomeComplete: false }),
      }),
      running: await seedJob(runtime, {
        type: 'CONVERSATION',
        status: 'IN_PROGRESS',
        createdAt: '2026-11-20T09:04:00.000Z',
        jobResponse: callState({ endReason: null, endedAt: null }),
      }),
      unreadable: await seedJob(runtime, {
        type: 'CONVERSATION',
        status: 'COMPLETED',
        createdAt: '2026-11-20T09:05:00.000Z',
        jobResponse: { transcript: 'not a list' },
      }),
      phone: await seedJob(runtime, {
        type: 'CONVERSATION',
        status: 'COMPLETED',
        createdAt: '2026-11-20T09:07:00.000Z',
        jobResponse: callState({ channel: 'SIP', direction: 'inbound', fromNumber: 'alice', toNumber: '+14155550100' }),
      }),
      longText: await seedJob(runtime, {
        type: 'CONVERSATION',
        status: 'COMPLETED',
        createdAt: '2026-11-20T09:06:00.000Z',
        jobResponse: callState({
          outcomeResult: `The caller wants a refund for order 42 ${'and more '.repeat(20)}`,
          outcomeComplete: null,
        }),
      }),
    }
    const result = await invokeOperation(runtime.operatorHandlers('desktop'), 'jobs.list', { take: 100 }, (error) => {
      throw error
    })
    if (!result.ok) throw new Error(JSON.stringify(result.error))
    expect(IPC_OPERATIONS['jobs.list'].output.parse(result.data)).toEqual(result.data)
    const page = result.data as IpcOutput<'jobs.list'>
    const byId = new Map(page.jobs.map((job) => [job.id, job]))

    // Another job's row is /v1's item exactly: no `call`, nothing else added.
    const v1 = await runtime.context.store.jobs.list(runtime.bootstrap.projectId, {
      sort: 'createdAt',
      direction: 'desc',
      limit: 100,
      offset: 0,
    })
    expect(v1.records.length).toBe(8)
    expect(Object.keys(byId.get(seeded.tts.id)!)).not.toContain('call')

    expect(byId.get(seeded.complete.id)).toMatchObject({
      attributes: { agentName: 'Table Booker', duration: 65 },
      call: {
        startedAt: STARTED,
        endReason: 'smart-end',
        outcome: 'complete',
        outcomeFields: [
          { name: 'customerName', value: 'Sara Haddad' },
          { name: 'guests', value: '4' },
        ],
      },
    })
    expect(byId.get(seeded.partial.id)!.call).toEqual({
      startedAt: STARTED,
      endReason: 'caller-hangup',
      outcome: 'partial',
      outcomeFields: [{ name: 'customerName', value: 'Omar' }],
    })
    expect(byId.get(seeded.nothing.id)!.call).toMatchObject({ endReason: 'silence', outcome: 'none', outcomeFields: [] })
    expect(byId.get(seeded.running.id)!.call).toEqual({ startedAt: STARTED, endReason: null, outcome: 'none', outcomeFields: [] })
    expect(byId.get(seeded.unreadable.id)!.call).toEqual({ startedAt: null, endReason: null, outcome: 'none', outcomeFields: [] })
    // A phone call over the SIP line says so, with its direction and both numbers; web calls have no `phone`.
    expect(byId.get(seeded.phone.id)!.call!.phone).toEqual({ direction: 'inbound', fromNumber: 'alice', toNumber: '+14155550100' })
    expect(byId.get(seeded.partial.id)!.call).not.toHaveProperty('phone')
    // An outcome that is not an object is one unnamed field, cut to 60 characters.
    const [text] = byId.get(seeded.longText.id)!.call!.outcomeFields
    expect(byId.get(seeded.longText.id)!.call!.outcome).toBe('complete')
    expect(text!.name).toBeNull()
    expect([...text!.value].length).toBe(60)
    expect(text!.value).toMatch(/^The caller wants a refund for order 42 and .*…$/)

    // The type filter keeps the conversations only.
    const calls = await invokeOperation(runtime.operatorHandlers('desktop'), 'jobs.list', { take: 100, type: 'CONVERSATION' }, (error) => {
      throw error
    })
    expect(calls.ok && (calls.data as IpcOutput<'jobs.list'>).jobs.map((job) => job.type)).toEqual(Array(7).fill('CONVERSATION'))
  })
})
