import { createEspeakTtsEngine, type TtsEngine } from '../../src/engines/tts/tts-engine'
import { afterEveryFile } from './after-every'

let engine: Promise<TtsEngine> | undefined
afterEveryFile(async () => {
  // A worker that runs several files in one process (isolate: false) makes a new engine for the next.
  const closing = engine
  engine = undefined
  await (await closing?.catch(() => undefined))?.close()
})

/**
 * One eSpeak engine per test file, closed after it: for a test caller's speech (spokenSamples)
 * and for the runtimes that take it as `speechEngine`. A runtime otherwise starts its own on its
 * first TTS job: the start and V8's warm-up of the synthesizer cost about 0.7 s of CPU per
 * runtime, most of what a file of short jobs spends. The runtime's own start of the engine stays
 * tested by the files that do not pass one.
 */
export function sharedSpeechEngine(): Promise<TtsEngine> {
  return (engine ??= createEspeakTtsEngine())
}
