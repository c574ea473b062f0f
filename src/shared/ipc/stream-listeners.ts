import type { IpcStreamClose, IpcStreamHandle, IpcStreamName, IpcStreamServerFrame } from './streams'

/**
 * The listening half of an IpcStreamHandle, the same on both carriers (the preload's MessagePort,
 * browser mode's WebSocket): frames go to their listeners in order until the stream closes; the
 * close is told once, also to a listener that subscribes after it. Types only are imported, so a
 * sandboxed preload bundles this without zod.
 */
export interface StreamListeners<N extends IpcStreamName> extends Pick<IpcStreamHandle<N>, 'onFrame' | 'onClose'> {
  /** How the stream closed; undefined while it is open. */
  readonly closed: IpcStreamClose | undefined
  /** Hands a frame from the service to the listeners (none once closed). */
  deliver(frame: IpcStreamServerFrame<N>): void
  /** The stream closed: tells the close listeners, once. */
  finish(close: IpcStreamClose): void
}

export function createStreamListeners<N extends IpcStreamName>(): StreamListeners<N> {
  const frameListeners = new Set<(frame: IpcStreamServerFrame<N>) => void>()
  const closeListeners = new Set<(close: IpcStreamClose) => void>()
  let result: IpcStreamClose | undefined
  return {
    get closed() {
      return result
    },
    deliver(frame) {
      if (result) return
      for (const listener of [...frameListeners]) listener(frame)
    },
    finish(close) {
      if (result) return
      result = close
      for (const listener of [...closeListeners]) listener(close)
      closeListeners.clear()
    },
    onFrame(listener) {
      frameListeners.add(listener)
      return () => void frameListeners.delete(listener)
    },
    onClose(listener) {
      if (result) {
        const close = result
        queueMicrotask(() => listener(close))
        return () => {}
      }
      closeListeners.add(listener)
      return () => void closeListeners.delete(listener)
    },
  }
}
