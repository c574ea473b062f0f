import type { z } from 'zod'
import type { IpcError } from '../../shared/ipc/operations'
import {
  IPC_STREAMS,
  type IpcStreamName,
  type IpcStreamParsedInput,
  type IpcStreamServerFrame,
  type IpcStreams,
} from '../../shared/ipc/streams'
import { validationDetails, validationSummary } from '../ops/validation-details'
import { ipcErrorOf, type InternalErrorLogger } from './invoke-operation'
import { present } from '../../shared/present'

/** A client frame after validation (defaults applied). */
export type IpcStreamParsedClientFrame<N extends IpcStreamName> = z.output<IpcStreams[N]['client']>

/** How a stream's handler talks to whoever opened it, whatever the carrier. */
export interface StreamPeer<N extends IpcStreamName> {
  send(frame: IpcStreamServerFrame<N>): void
  /** Closes the stream from the service's end (after its last frame, such as `ended`). */
  close(): void
}

/** A stream that runs: what its handler answers once it accepted the input. */
export interface StreamRun<N extends IpcStreamName> {
  /** A client frame, already validated. */
  receive(frame: IpcStreamParsedClientFrame<N>): void
  /** The opener closed the stream, or its carrier broke. Called once; never after the service closed it. */
  closed(): void
}

/**
 * One handler per stream of the contract. It throws (a ServiceError, say) to refuse the stream:
 * the opener gets a `refused` frame with the same IpcError an operation would answer.
 */
export type OperatorStreamHandlers = {
  [N in IpcStreamName]: (input: IpcStreamParsedInput<N>, peer: StreamPeer<N>) => Promise<StreamRun<N>>
}

/** What a carrier (a WebSocket, a MessagePort) offers: frames are plain values (parsed JSON, or a structured clone). */
export interface StreamCarrier {
  send(frame: unknown): void
  /** Ends the carrier cleanly (WebSocket close 1000, MessagePort close); may be called more than once. */
  close(): void
}

/** What a carrier tells the stream. */
export interface OperatorStreamConnection {
  /** A frame from the opener, not yet validated. */
  receive(frame: unknown): void
  /** The opener's end closed. */
  closed(): void
}

/** Frames kept while a stream starts (a second of microphone audio is some 10). */
const MAX_EARLY_FRAMES = 256

const isStreamName = (name: string): name is IpcStreamName => Object.hasOwn(IPC_STREAMS, name)

/** Answers a refusal on a carrier: a `refused` frame, then a clean close. */
export function refuseStream(carrier: StreamCarrier, error: IpcError): void {
  carrier.send({ type: 'refused', error })
  carrier.close()
}

/**
 * Opens stream `name` for a carrier; the one entry point of both carriers (Electron's
 * MessagePort, browser mode's WebSocket). Validates the input with the contract's schema (a bad
 * one is `refused` VALIDATION_ERROR with field details), runs the handler, and validates every
 * client frame: a bad frame gets an `info` frame with a readable message and the stream stays up.
 * Frames that arrive while the handler is still starting are kept and given to it in order.
 * Never throws: a fault of VoiceDesk is `refused` INTERNAL and goes to `logInternal`.
 */
export function openOperatorStream(
  handlers: OperatorStreamHandlers,
  name: string,
  rawInput: unknown,
  carrier: StreamCarrier,
  logInternal: InternalErrorLogger = () => {},
): OperatorStreamConnection {
  let state: 'opening' | 'running' | 'closed' = 'opening'
  let run: StreamRun<IpcStreamName> | undefined
  const early: unknown[] = []
  let openerClosed = false
  const closeFromService = () => {
    state = 'closed'
    carrier.close()
  }
  const refuse = (error: IpcError) => {
    if (state === 'closed') return
    state = 'closed'
    refuseStream(carrier, error)
  }

  if (!isStreamName(name)) {
    refuse({ code: 'NOT_FOUND', message: `No stream named ${JSON.stringify(String(name).slice(0, 100))}`, details: [] })
    return { receive: () => {}, closed: () => {} }
  }
  const contract = IPC_STREAMS[name]
  const parsedInput = contract.input.safeParse(rawInput ?? {})
  if (!parsedInput.success) {
    const details = validationDetails(parsedInput.error.issues)
    refuse({ code: 'VALIDATION_ERROR', message: validationSummary('Invalid input', details), details })
    return { receive: () => {}, closed: () => {} }
  }

  const deliver = (raw: unknown) => {
    const parsed = contract.client.safeParse(raw)
    if (!parsed.success) {
      const details = validationDetails(parsed.error.issues)
      carrier.send({ type: 'info', code: 'INVALID_FRAME', message: validationSummary('Frame ignored', details) })
      return
    }
    try {
      present(run, 'the running stream').receive(parsed.data)
    } catch (error) {
      logInternal(error, name)
    }
  }

  const peer: StreamPeer<IpcStreamName> = {
    send: (frame) => {
      if (state !== 'closed') carrier.send(frame)
    },
    close: closeFromService,
  }
  void handlers[name](parsedInput.data, peer).then(
    (started) => {
      // The service closed it while it started: it knows.
      if (state === 'closed') return
      run = started
      state = 'running'
      for (const frame of early.splice(0)) deliver(frame)
      if (openerClosed) {
        state = 'closed'
        started.closed()
      }
    },
    (error: unknown) =>
      refuse(
        ipcErrorOf(error, `The stream ${name} could not open inside VoiceDesk; the service log has the details`, (caught) =>
          logInternal(caught, name),
        ),
      ),
  )

  return {
    receive(frame) {
      if (state === 'running') deliver(frame)
      else if (state === 'opening' && early.length < MAX_EARLY_FRAMES) early.push(frame)
    },
    closed() {
      if (openerClosed) return
      openerClosed = true
      if (state === 'running') {
        state = 'closed'
        present(run, 'the running stream').closed()
      }
    },
  }
}
