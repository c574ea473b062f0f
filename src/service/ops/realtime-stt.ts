import { createWebRtcVoiceClassifier } from '../../engines/audio/webrtc-voice-classifier'
import { MediaDecodeError } from '../../engines/audio/media-decoder'
import { MediaTooLongError, transcribeMediaFile, type MediaTranscript } from '../../engines/stt/media-transcription'
import { SttEngineError } from '../../engines/stt/stt-engine-error'
import type { SttEngine } from '../../engines/stt/stt-engine'
import { REALTIME_STT_MAX_SECONDS } from '../../shared/api/realtime'
import { baseRecord, titleFrom } from './jobs'
import { type Caller, type OpsContext, timestamp } from './ops-context'
import { mediaCost } from './prices'
import { invalid, ServiceError } from './service-error'

export const STT_NOT_CONFIGURED_MESSAGE =
  'No speech recognition server is set, so nothing can be transcribed: choose one with `voicedesk stt-engine openai-compatible --base-url http://127.0.0.1:8080/v1` ' +
  '(a whisper.cpp server, speaches or LocalAI) or in the app under Settings'

/** A failure as the caller's answer: their media (400, 413) or our speech server (503, with when to try again if it may pass). */
function realtimeFailure(error: unknown): unknown {
  if (error instanceof MediaDecodeError) {
    if (error.code === 'DECODER_UNAVAILABLE') return new ServiceError('UNAVAILABLE', error.message)
    return invalid('file', error.message)
  }
  if (error instanceof MediaTooLongError) {
    return new ServiceError(
      'PAYLOAD_TOO_LARGE',
      `The audio is ${Math.round(error.seconds)} s long; POST /v1/realtime/stt takes up to ${error.maxSeconds} s. POST /v1/jobs/transcribe takes any length.`,
      [{ path: 'file', message: `Longer than ${error.maxSeconds} s` }],
    )
  }
  if (error instanceof SttEngineError) return new ServiceError('UNAVAILABLE', error.message, [], error.transient ? 5 : undefined)
  return error
}

/**
 * `POST /v1/realtime/stt`: transcribes a short file at once, through the same windows and
 * speech server as transcription jobs, and records its use as a COMPLETED transcription job
 * (processingType REALTIME), as realtime TTS does. The caller deletes the stored upload.
 */
export async function transcribeNow(
  context: OpsContext,
  caller: Caller,
  stt: SttEngine | undefined,
  upload: { path: string; fileName: string; language?: string; model?: string },
  signal: AbortSignal,
): Promise<MediaTranscript> {
  if (!stt) throw new ServiceError('UNAVAILABLE', STT_NOT_CONFIGURED_MESSAGE)
  const classifier = await createWebRtcVoiceClassifier()
  let transcript: MediaTranscript
  try {
    transcript = await transcribeMediaFile(upload.path, {
      stt,
      classifier,
      language: upload.language,
      signal,
      maxSeconds: REALTIME_STT_MAX_SECONDS,
    })
  } catch (error) {
    throw realtimeFailure(error)
  } finally {
    classifier.dispose()
  }
  await context.store.jobs.insert({
    ...baseRecord(context, caller, timestamp(context)),
    type: 'TRANSCRIPTION',
    status: 'COMPLETED',
    title: titleFrom(upload.fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '') || 'Realtime transcription', 200),
    model: upload.model ?? stt.model,
    processingType: 'REALTIME',
    systemModelKey: 'stt-openai-compatible',
    fromLng: upload.language ?? null,
    text: transcript.text,
    jobResponse: { ...transcript },
    usageSeconds: transcript.durationSeconds,
    totalCost: mediaCost('TRANSCRIPTION', transcript.durationSeconds),
  })
  return transcript
}
