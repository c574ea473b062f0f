import { Worker } from 'node:worker_threads'
import type { EspeakWorkerData, EspeakWorkerMessage, SynthesizeRequest } from './espeak-worker-protocol'
import { ESPEAK_WORKER_SOURCE } from './espeak-worker-source'
import { TtsEngineError } from './tts-engine-error'

/** One request to a worker (a whole synthesis, or one segment of it): settles once, by result, error or abort. */
export interface SpeechTask {
  readonly request: SynthesizeRequest
  readonly settled: boolean
  succeed(pcm: ArrayBuffer, sampleRate: number, ipa?: string): void
  /** A streaming task's next chunk of audio, before it succeeds. */
  chunk?(pcm: ArrayBuffer, sampleRate: number): void
  fail(error: TtsEngineError): void
}

export interface EspeakWorkerThreadEvents {
  /** The thread is ready and has no task: give it the next one. */
  idle(): void
}

/**
 * One warm eSpeak instance in a worker thread, running one task at a time. It is started by
 * the pool when work waits (and again after a crash), and run() is only called once it is
 * ready. The thread keeps the process alive only while it starts or works, so an idle engine
 * never holds a CLI or test run open; release() ends an idle one to give its memory back.
 */
export class EspeakWorkerThread {
  private worker: Worker | undefined
  private starting: Promise<number> | undefined
  private task: SpeechTask | undefined
  private sampleRate = 0
  private loaded = false
  private stopped = false
  private readonly cancelSlot = new Int32Array(new SharedArrayBuffer(4))

  constructor(
    private readonly espeakModulePath: string,
    private readonly events: EspeakWorkerThreadEvents,
  ) {}

  get busy(): boolean {
    return this.task !== undefined
  }

  /** eSpeak is loaded and the thread can take a task. */
  get ready(): boolean {
    return this.loaded && this.worker !== undefined
  }

  /** A worker is loading or loaded. */
  get started(): boolean {
    return this.starting !== undefined
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
          this.loaded = this.worker === worker
          this.sampleRate = message.sampleRate
          worker.unref()
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
        // A released worker is no longer this thread's: its exit is expected and changes nothing.
        const current = this.worker === worker
        if (current) this.forget()
        const reason = failure?.message ?? `exit code ${code}`
        if (!ready) {
          reject(new TtsEngineError('START_FAILED', `eSpeak could not start in its worker thread: ${reason}`, { cause: failure }))
        } else if (current && !this.stopped) {
          this.crashed(reason, failure)
        }
      })
    })
    return this.starting
  }

  /** Sends a task to the ready, idle worker; the task settles on its reply (or the worker's crash). */
  run(task: SpeechTask): void {
    const worker = this.worker
    if (!this.ready || this.busy || !worker) throw new Error('EspeakWorkerThread.run needs a ready, idle thread')
    this.task = task
    worker.ref()
    worker.postMessage(task.request)
  }

  /**
   * Asks the worker to stop request `id`. eSpeak runs synchronously, so the worker cannot
   * receive a message until it finishes; it reads this shared slot between audio chunks.
   */
  cancel(id: number): void {
    if (this.task?.request.id === id) Atomics.store(this.cancelSlot, 0, id)
  }

  /** Ends an idle worker to free its memory; the pool starts it again when work needs it. */
  release(): void {
    if (this.busy || !this.ready) return
    const worker = this.worker
    this.forget()
    void worker?.terminate()
  }

  /** Terminates the worker for good, failing the task in flight with `error`. */
  async stop(error: TtsEngineError): Promise<void> {
    this.stopped = true
    this.task?.fail(error)
    this.task = undefined
    await this.worker?.terminate()
  }

  private forget(): void {
    this.worker = undefined
    this.starting = undefined
    this.loaded = false
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
      new TtsEngineError(
        'WORKER_CRASHED',
        `The eSpeak worker thread stopped while synthesizing (${reason}); the next call starts a new one`,
        {
          cause: failure,
        },
      ),
    )
    this.events.idle()
  }
}
