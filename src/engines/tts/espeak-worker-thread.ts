import { Worker } from 'node:worker_threads'
import type { EspeakWorkerData, EspeakWorkerMessage, SynthesizeRequest } from './espeak-worker-protocol'
import { ESPEAK_WORKER_SOURCE } from './espeak-worker-source'
import { TtsEngineError } from './tts-engine-error'

/** One synthesis as the engine tracks it: settles once, by result, error or abort. */
export interface SpeechTask {
  readonly request: SynthesizeRequest
  readonly settled: boolean
  succeed(pcm: ArrayBuffer, sampleRate: number, ipa?: string): void
  /** A streaming task's next chunk of audio, before it succeeds. */
  chunk?(pcm: ArrayBuffer, sampleRate: number): void
  fail(error: TtsEngineError): void
}

export interface EspeakWorkerThreadEvents {
  /** The thread has no task any more: give it the next one. */
  idle(): void
  /** The worker could not start; the task it was started for has been failed already. */
  startFailed(error: TtsEngineError): void
}

/**
 * One warm eSpeak instance in a worker thread, running one task at a time. Starts on
 * demand, and again on demand after a crash. The thread keeps the process alive only
 * while it starts or works, so an idle engine never holds a CLI or test run open.
 */
export class EspeakWorkerThread {
  private worker: Worker | undefined
  private starting: Promise<number> | undefined
  private task: SpeechTask | undefined
  private sampleRate = 0
  private stopped = false
  private readonly cancelSlot = new Int32Array(new SharedArrayBuffer(4))

  constructor(
    private readonly espeakModulePath: string,
    private readonly events: EspeakWorkerThreadEvents,
  ) {}

  get busy(): boolean {
    return this.task !== undefined
  }

  /** Starts the worker unless it runs already; resolves with its sample rate once eSpeak is loaded. */
  start(): Promise<number> {
    if (this.stopped) return Promise.reject(new TtsEngineError('ENGINE_CLOSED', 'The TTS engine is closed'))
    this.starting ??= new Promise((resolve, reject) => {
      const workerData: EspeakWorkerData = { espeakModulePath: this.espeakModulePath, cancelSlot: this.cancelSlot.buffer }
      const worker = new Worker(ESPEAK_WORKER_SOURCE, { eval: true, name: 'voicedesk-espeak', workerData })
      this.worker = worker
      let ready = false
      let failure: Error | undefined
      worker.on('message', (message: EspeakWorkerMessage) => {
        if (message.type === 'ready') {
          ready = true
          this.sampleRate = message.sampleRate
          if (!this.task) worker.unref()
          resolve(message.sampleRate)
        } else if (message.type === 'chunk') {
          if (this.task?.request.id === message.id && !this.task.settled) this.task.chunk?.(message.pcm, this.sampleRate)
        } else {
          this.finish(message)
        }
      })
      worker.on('error', (error) => {
        failure = error
      })
      worker.on('exit', (code) => {
        if (this.worker === worker) {
          this.worker = undefined
          this.starting = undefined
        }
        const reason = failure?.message ?? `exit code ${code}`
        if (!ready) {
          reject(new TtsEngineError('START_FAILED', `eSpeak could not start in its worker thread: ${reason}`, { cause: failure }))
        } else if (!this.stopped) {
          this.crashed(reason, failure)
        }
      })
    })
    return this.starting
  }

  /** Runs a task: starts the worker if needed, sends the request, settles the task on reply. */
  async run(task: SpeechTask): Promise<void> {
    this.task = task
    try {
      await this.start()
    } catch (error) {
      this.task = undefined
      const startError = error as TtsEngineError
      task.fail(startError)
      if (!this.stopped) this.events.startFailed(startError)
      return
    }
    if (task.settled || !this.worker) {
      // Aborted (or the engine closed) while the worker was starting.
      this.task = undefined
      this.events.idle()
      return
    }
    this.worker.ref()
    this.worker.postMessage(task.request)
  }

  /**
   * Asks the worker to stop request `id`. eSpeak runs synchronously, so the worker cannot
   * receive a message until it finishes; it reads this shared slot between audio chunks.
   */
  cancel(id: number): void {
    if (this.task?.request.id === id) Atomics.store(this.cancelSlot, 0, id)
  }

  /** Terminates the worker for good, failing the task in flight with `error`. */
  async stop(error: TtsEngineError): Promise<void> {
    this.stopped = true
    this.task?.fail(error)
    this.task = undefined
    await this.worker?.terminate()
  }

  private finish(message: Exclude<EspeakWorkerMessage, { type: 'ready' } | { type: 'chunk' }>): void {
    const task = this.task
    if (!task || task.request.id !== message.id) return
    this.task = undefined
    this.worker?.unref()
    if (message.type === 'failed') task.fail(new TtsEngineError('SYNTHESIS_FAILED', `eSpeak failed: ${message.message}`))
    else if (!message.cancelled) task.succeed(message.pcm, this.sampleRate, message.ipa)
    // A cancelled task was failed with ABORTED when its signal fired.
    this.events.idle()
  }

  private crashed(reason: string, failure: Error | undefined): void {
    const task = this.task
    this.task = undefined
    task?.fail(
      new TtsEngineError('WORKER_CRASHED', `The eSpeak worker thread stopped while synthesizing (${reason}); the next call starts a new one`, {
        cause: failure,
      }),
    )
    this.events.idle()
  }
}
