import type { ToolCallRecord } from '../shared/api/conversations'
import type { ServerFrame } from '../shared/api/stream-frames'
import type { DialogueTool, ToolResult } from '../engines/dialogue/dialogue-engine'
import type { CallObservation } from './call-session-options'

export interface ToolBridgeOptions {
  /** The tools the page offered at conversation-init. */
  tools: readonly DialogueTool[]
  /** Where each call is recorded (the conversation's toolCalls). */
  records: ToolCallRecord[]
  timeoutMs: number
  send: (frame: ServerFrame) => void
  observe: (observation: CallObservation) => void
  /** Writes the finished tool call (the `tool.executed` webhook). */
  saved: (record: ToolCallRecord) => Promise<unknown>
  /** Seconds from the call's start, for the record. */
  seconds: () => number
}

/**
 * Tools run in the caller's page: a `tools` frame out, its `tools_response` back, within the
 * time limit. Every call is recorded and written whatever its result; the call's end answers
 * every tool still waiting.
 */
export class ToolBridge {
  private counter = 0
  private readonly pending = new Map<string, (result: ToolResult) => void>()
  private closed = false

  constructor(private readonly options: ToolBridgeOptions) {}

  async call(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const { options } = this
    if (this.closed) return { ok: false, error: 'The call has ended' }
    if (!options.tools.some((tool) => tool.name === name)) return { ok: false, error: `The page offered no tool named ${name}` }
    const id = `call_${(this.counter += 1)}`
    const record: ToolCallRecord = { id, name, arguments: args, at: options.seconds() }
    options.records.push(record)
    options.observe({ type: 'tool-call', id, name, arguments: args, at: record.at })
    const result = await new Promise<ToolResult>((resolve) => {
      const timer = setTimeout(
        () => resolve({ ok: false, error: `The page did not answer within ${options.timeoutMs} ms` }),
        options.timeoutMs,
      )
      this.pending.set(id, (answer) => {
        clearTimeout(timer)
        resolve(answer)
      })
      options.send({ event: 'tools', content: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }] })
    })
    this.pending.delete(id)
    if (result.ok) record.response = result.response
    else record.error = result.error
    options.observe({ type: 'tool-result', call: { ...record } })
    await options.saved(record)
    return result
  }

  /** The page answered: a `tools_response` entry (an id no call waits for is ignored). */
  answer(id: string, response: unknown): void {
    this.pending.get(id)?.({ ok: true, response })
  }

  /** The call ended: tools still waiting are answered so, and no new one starts. */
  close(): void {
    this.closed = true
    for (const resolve of this.pending.values()) resolve({ ok: false, error: 'The call has ended' })
  }
}
