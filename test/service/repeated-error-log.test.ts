import { describe, expect, it } from 'vitest'
import { RepeatedErrorLog } from '../../src/service/ops/repeated-error-log'

function recorder() {
  const lines: { fields: Record<string, unknown>; message: string }[] = []
  return { lines, error: (fields: Record<string, unknown>, message: string) => lines.push({ fields, message }) }
}

const diskFull = () => Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })

describe('RepeatedErrorLog', () => {
  it('writes an error once per window, then one summary of its repeats', () => {
    const sink = recorder()
    let now = 0
    const log = new RepeatedErrorLog(sink, 60_000, () => now)
    for (let request = 0; request < 50; request += 1) {
      now = request * 100
      log.error({ err: diskFull(), requestId: `req-${request}` }, 'request failed')
    }
    expect(sink.lines).toHaveLength(1)
    expect(sink.lines[0]!.fields.requestId).toBe('req-0') // the first keeps its full details

    now = 60_000
    log.flush()
    expect(sink.lines).toHaveLength(2)
    expect(sink.lines[1]).toEqual({
      fields: { repeated: 49, code: 'SQLITE_FULL', sinceMs: 60_000 },
      message: 'request failed (the same error 49 more times in 60 s)',
    })
    log.close()
  })

  it('keeps different errors apart, by message, code and text', () => {
    const sink = recorder()
    const log = new RepeatedErrorLog(sink, 60_000, () => 0)
    log.error({ err: diskFull() }, 'request failed')
    log.error({ err: diskFull() }, 'job failed')
    log.error({ err: Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }) }, 'request failed')
    log.error({ err: new Error('other') }, 'request failed')
    log.error({ err: diskFull() }, 'request failed')
    expect(sink.lines.map((line) => line.message)).toEqual(['request failed', 'job failed', 'request failed', 'request failed'])
    log.close()
    expect(sink.lines.at(-1)!.message).toBe('request failed (the same error 1 more time in 1 s)')
  })

  it('writes the error in full again once its window is over, after the summary of the last one', () => {
    const sink = recorder()
    let now = 0
    const log = new RepeatedErrorLog(sink, 1_000, () => now)
    log.error({ err: diskFull() }, 'request failed')
    now = 500
    log.error({ err: diskFull() }, 'request failed')
    now = 1_500
    log.error({ err: diskFull(), requestId: 'later' }, 'request failed')
    expect(sink.lines.map((line) => line.message)).toEqual([
      'request failed',
      'request failed (the same error 1 more time in 2 s)',
      'request failed',
    ])
    expect(sink.lines[2]!.fields.requestId).toBe('later')
    log.close()
    expect(sink.lines).toHaveLength(3) // nothing repeated since: no empty summary
  })
})
