/**
 * The eSpeak worker thread's code, run with `new Worker(ESPEAK_WORKER_SOURCE, { eval: true })`.
 *
 * Why a string: the engine runs from TypeScript sources under vitest and from the chunks
 * electron-vite bundles into out/main; a separate worker file would exist in only one of
 * them, while a string travels inside whichever module imports it. It is plain CommonJS-style
 * JavaScript (eval'd worker code has `require`), loading eSpeak with a dynamic `import()`
 * because the package is an ES module. Messages follow espeak-worker-protocol.ts.
 *
 * The parts of the package's API it uses (no typings ship with it):
 *   default export EspeakInit(moduleArg) -> Promise<module>; the package's own locateFile
 *     finds espeak-ng.data beside espeak-ng.js and overrides any locateFile passed in.
 *   new module.eSpeakNGWorker(): get_samplerate() -> 22050; set_voice(name) -> 0 when found
 *     (name may carry a variant: 'en-us+f3'); set_rate(wpm), set_pitch(0-99),
 *     set_range(0-99), which persist across set_voice; synthesize(text, callback) calls
 *     callback(int16Chunk, events) as audio is produced, and stops early when it returns true;
 *     synthesize_ipa(text) -> { code, ipa }: the phonemes it would say, as IPA, with no audio.
 */
export const ESPEAK_WORKER_SOURCE = /* js */ `
'use strict'
const { parentPort, workerData } = require('node:worker_threads')
const { pathToFileURL } = require('node:url')

const cancelSlot = new Int32Array(workerData.cancelSlot)
let espeak

// Runs eSpeak to the end (or until the main thread writes this id into the cancel slot)
// and returns the samples as one Int16Array; a streaming request posts each chunk as it
// comes instead (copied into a buffer of its own, which is transferred) and returns no samples.
function speak(request) {
  if (espeak.set_voice(request.espeakVoice) !== 0) throw new Error('eSpeak has no voice ' + request.espeakVoice)
  espeak.set_rate(request.rate)
  espeak.set_pitch(request.pitch)
  espeak.set_range(request.range)
  if (request.phonemes) {
    const { code, ipa } = espeak.synthesize_ipa(request.text)
    if (code !== 0) throw new Error('eSpeak could not give the phonemes (code ' + code + ')')
    return { samples: new Int16Array(0), cancelled: false, ipa }
  }
  const chunks = []
  let length = 0
  let cancelled = false
  espeak.synthesize(request.text, (chunk) => {
    cancelled = Atomics.load(cancelSlot, 0) === request.id
    if (cancelled) return true
    if (request.stream) {
      const copy = chunk.slice()
      if (copy.length > 0) parentPort.postMessage({ type: 'chunk', id: request.id, pcm: copy.buffer }, [copy.buffer])
      return false
    }
    chunks.push(chunk)
    length += chunk.length
    return false
  })
  if (cancelled || request.stream) return { samples: new Int16Array(0), cancelled }
  const samples = new Int16Array(length)
  let offset = 0
  for (const chunk of chunks) {
    samples.set(chunk, offset)
    offset += chunk.length
  }
  return { samples, cancelled }
}

async function start() {
  const { default: EspeakInit } = await import(pathToFileURL(workerData.espeakModulePath).href)
  const module = await EspeakInit({})
  espeak = new module.eSpeakNGWorker()
  parentPort.on('message', (request) => {
    try {
      const { samples, cancelled, ipa } = speak(request)
      parentPort.postMessage({ type: 'speech', id: request.id, pcm: samples.buffer, cancelled, ipa }, [samples.buffer])
    } catch (error) {
      parentPort.postMessage({ type: 'failed', id: request.id, message: String((error && error.message) || error) })
    }
  })
  parentPort.postMessage({ type: 'ready', sampleRate: espeak.get_samplerate() })
}

// A start-up failure ends the thread as an uncaught exception, which the main thread
// receives as the Worker's 'error' event (an unhandled rejection might only be a warning).
start().catch((error) => {
  process.nextTick(() => {
    throw error
  })
})
`
