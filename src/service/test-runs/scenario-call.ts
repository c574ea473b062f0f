import { WebSocket } from 'ws'
import type { SimulatedCaller } from './simulated-caller'

/*
 * One scenario's call, from the caller's side: a WebSocket client on `/stream/{jobId}` speaking
 * the web SDK's frames (`start`, marks echoed, `stop`), with the caller's lines typed as `text`
 * frames. It measures what a caller would: the greeting's first audio from the socket's opening,
 * and per caller line the time to the answer's first audio.
 */

export interface ScenarioCallOptions {
  /** `ws://host:port/stream/{jobId}?api_key=…` */
  url: string
  caller: SimulatedCaller
  /** The whole call's limit: past it the caller hangs up and the scenario fails as hung. */
  timeoutMs: number
  /** How long the caller waits, once it has nothing left to say, for the call to end on its own before it hangs up. */
  endGraceMs: number
  /** Aborted when the service stops: the caller hangs up at once. */
  signal: AbortSignal
  /**
   * A spoken caller: each line synthesised (16 kHz PCM16) and streamed as microphone frames in
   * real time, with the silence after it that ends a turn; without it, lines are typed.
   */
  speech?: { synthesise: (line: string) => Promise<Int16Array>; endOfTurnSilenceMs: number }
}

/** The SDK's microphone frame: 128 Float32 samples at 16 kHz (8 ms). */
const FRAME_SAMPLES = 128
const SAMPLE_RATE = 16_000
/** Frames go out in bursts of this many, as a browser's audio callback sends them (40 ms). */
const FRAMES_PER_BURST = 5
/** How long after the last audio frame was sent a spoken caller takes the agent's turn as heard: the service keeps ~600 ms ahead. */
const SPOKEN_PLAYBACK_TAIL_MS = 900

/** A microphone's faint noise floor (not digital silence, which no microphone sends). */
function noiseFloor(samples: number): Float32Array {
  const noise = new Float32Array(samples)
  for (let index = 0; index < samples; index += 1) noise[index] = (Math.random() - 0.5) * 0.002
  return noise
}

/** Streams `samples` as the SDK's media frames at about real time; stops early when `stopped()`. */
async function streamMicrophone(
  send: (frame: Record<string, unknown>) => void,
  samples: Float32Array,
  stopped: () => boolean,
): Promise<void> {
  const burst = FRAME_SAMPLES * FRAMES_PER_BURST
  const started = Date.now()
  for (let start = 0; start < samples.length && !stopped(); start += burst) {
    for (let frame = start; frame < Math.min(samples.length, start + burst); frame += FRAME_SAMPLES) {
      const chunk = new Float32Array(FRAME_SAMPLES)
      chunk.set(samples.subarray(frame, frame + FRAME_SAMPLES))
      send({ event: 'media', streamSid: 'WEBSDK', media: { payload: Buffer.from(chunk.buffer).toString('base64') } })
    }
    // Paced by the clock, not by the timer: a late timer sends the next burst at once.
    const due = started + ((start + burst) / SAMPLE_RATE) * 1000
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())))
  }
}

export interface ScenarioCallReport {
  /** Why the call did not run to its end (a hang, a refusal, the service stopping); null when it did. */
  error: string | null
  firstAudioMs: number | null
  voiceToVoiceMs: number[]
  /** The caller hung up (it had nothing left to say); false when the service ended the call. */
  callerHungUp: boolean
}

interface Frame {
  event?: string
  content?: string
  code?: string
  message?: string
  mark?: { name?: string }
}

/** Runs the call until the socket closes; never rejects. */
export function runScenarioCall(options: ScenarioCallOptions): Promise<ScenarioCallReport> {
  return new Promise((resolve) => {
    const report: ScenarioCallReport = { error: null, firstAudioMs: null, voiceToVoiceMs: [], callerHungUp: false }
    const socket = new WebSocket(options.url, { perMessageDeflate: false })
    let openedAt = 0
    let started = false
    let lineSentAt: number | undefined
    let agentLines: string[] = []
    let lastInfo: Frame | undefined
    let graceTimer: ReturnType<typeof setTimeout> | undefined
    const send = (frame: Record<string, unknown>) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(frame))
    }
    const hangUp = () => {
      send({ event: 'stop', streamSid: 'WEBSDK' })
      if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(1000)
    }
    const fail = (error: string) => {
      report.error ??= error
      hangUp()
      // A socket that does not close cleanly in a moment is cut.
      setTimeout(() => socket.terminate(), 2_000).unref()
    }
    const timeout = setTimeout(() => {
      const lastLine = agentLines.at(-1)
      fail(
        `Timed out after ${Math.round(options.timeoutMs / 1000)} s: the call did not finish` +
          (started
            ? lastLine
              ? ` (the agent last said ${JSON.stringify(lastLine)})`
              : ' (the agent said nothing more)'
            : ' (it never started)'),
      )
    }, options.timeoutMs)
    const onAbort = () => fail('The service stopped during the scenario')
    options.signal.addEventListener('abort', onAbort, { once: true })
    if (options.signal.aborted) onAbort()

    socket.on('open', () => {
      openedAt = Date.now()
      send({ event: 'start', streamSid: 'WEBSDK' })
    })
    socket.on('message', (data, isBinary) => {
      if (isBinary) return
      let frame: Frame
      try {
        frame = JSON.parse((data as Buffer).toString('utf8')) as Frame
      } catch {
        return
      }
      const now = Date.now()
      switch (frame.event) {
        case 'info':
          lastInfo = frame
          if (frame.code === 'CALL_STARTED') started = true
          break
        case 'media':
          report.firstAudioMs ??= now - openedAt
          if (lineSentAt !== undefined) report.voiceToVoiceMs.push(now - lineSentAt)
          lineSentAt = undefined
          break
        case 'answer':
          if (typeof frame.content === 'string') agentLines.push(frame.content)
          break
        case 'mark': {
          const line = options.caller.next(agentLines)
          agentLines = []
          const echo = () => send({ event: 'mark', streamSid: 'WEBSDK', mark: { name: frame.mark?.name ?? '' } })
          if (options.speech) {
            // A spoken caller waits for the turn to finish playing: talking over it would be a barge-in.
            const { speech } = options
            const heard = new Promise((resolve) => setTimeout(resolve, SPOKEN_PLAYBACK_TAIL_MS))
            if (line === undefined) void heard.then(echo)
            else
              void Promise.all([speech.synthesise(line), heard])
                .then(async ([pcm]) => {
                  echo()
                  const voice = Float32Array.from(pcm, (sample) => sample / 32768)
                  const stopped = () => socket.readyState !== WebSocket.OPEN
                  await streamMicrophone(send, noiseFloor(SAMPLE_RATE / 5), stopped)
                  await streamMicrophone(send, voice, stopped)
                  lineSentAt = Date.now()
                  await streamMicrophone(send, noiseFloor(((speech.endOfTurnSilenceMs + 600) * SAMPLE_RATE) / 1000), stopped)
                })
                .catch((error: unknown) =>
                  fail(`The caller's line could not be spoken: ${error instanceof Error ? error.message : String(error)}`),
                )
          } else {
            // The agent's turn is sent whole (unpaced): its playback is taken as done at once (typed callers need not wait for it).
            echo()
            if (line !== undefined) {
              send({ event: 'text', content: line })
              lineSentAt = Date.now()
            }
          }
          if (line === undefined) {
            graceTimer ??= setTimeout(() => {
              report.callerHungUp = true
              hangUp()
            }, options.endGraceMs)
          }
          break
        }
        default:
          break
      }
    })
    socket.on('error', (error) => {
      report.error ??= `The call's socket failed: ${error.message}`
    })
    socket.on('close', () => {
      clearTimeout(timeout)
      clearTimeout(graceTimer)
      options.signal.removeEventListener('abort', onAbort)
      if (!started && report.error === null)
        report.error = lastInfo ? `The call was refused: ${lastInfo.code ?? ''} ${lastInfo.message ?? ''}`.trim() : 'The call never started'
      resolve(report)
    })
  })
}
