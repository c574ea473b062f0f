import { TEST_CALL_SAMPLE_RATE } from '../../../../shared/ipc/streams'
import captureWorkletUrl from './pcm16-capture.worklet.ts?worker&url'
import { floatToPcm16Base64 } from './pcm16-base64'

/** Why the microphone could not start: refused by the operator or the system, absent, or another failure. */
export type MicrophoneProblem = 'denied' | 'missing' | 'failed'

export interface Microphone {
  /** Muted: frames are still captured but not sent. */
  setMuted(muted: boolean): void
  stop(): void
}

export class MicrophoneError extends Error {
  constructor(
    readonly problem: MicrophoneProblem,
    detail: string,
  ) {
    super(detail)
  }
}

function problemOf(error: unknown): MicrophoneProblem {
  const name = error instanceof DOMException || error instanceof Error ? error.name : ''
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied'
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'missing'
  return 'failed'
}

/**
 * The microphone at 16 kHz in 20 ms frames of base64 PCM16: getUserMedia, an AudioContext
 * created at 16 kHz (the browser resamples the device's rate), an AudioWorklet that cuts frames.
 */
export async function startMicrophone(onFrame: (pcm16: string) => void): Promise<Microphone> {
  if (!navigator.mediaDevices?.getUserMedia) throw new MicrophoneError('missing', 'This browser offers no microphone here')
  let stream: MediaStream
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
    })
  } catch (error) {
    throw new MicrophoneError(problemOf(error), error instanceof Error ? error.message : String(error))
  }
  const context = new AudioContext({ sampleRate: TEST_CALL_SAMPLE_RATE })
  try {
    await context.audioWorklet.addModule(captureWorkletUrl)
    const source = context.createMediaStreamSource(stream)
    // No output: the node is a sink, processed without being connected to the speakers.
    const capture = new AudioWorkletNode(context, 'pcm16-capture', {
      numberOfInputs: 1,
      numberOfOutputs: 0,
      processorOptions: { frameMs: 20 },
    })
    let muted = false
    capture.port.onmessage = (event: MessageEvent<Float32Array>) => {
      if (!muted) onFrame(floatToPcm16Base64(event.data))
    }
    source.connect(capture)
    if (context.state === 'suspended') await context.resume()
    return {
      setMuted(value) {
        muted = value
      },
      stop() {
        capture.port.onmessage = null
        source.disconnect()
        for (const track of stream.getTracks()) track.stop()
        void context.close()
      },
    }
  } catch (error) {
    for (const track of stream.getTracks()) track.stop()
    void context.close()
    throw new MicrophoneError('failed', error instanceof Error ? error.message : String(error))
  }
}
