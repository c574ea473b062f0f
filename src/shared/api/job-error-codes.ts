import { z } from 'zod'

/**
 * Every code a FAILED job's `error.code` can hold, with its meaning (docs/api.md, "Jobs",
 * lists the same). A job runner or handler can fail a job only with one of these (JobError
 * takes a JobErrorCode): a new failure needs a new member here, and a line in the docs.
 */
export const JOB_ERROR_MEANINGS = {
  TIMEOUT: 'The last try ran out of time.',
  AI_ENGINE_FAILED: 'The AI-content engine failed; the message says how (e.g. the model server could not be reached). Not retried.',
  SOURCE_JOB_MISSING: "The AI-content or translation job's source job is gone or has no text.",
  TTS_ENGINE_FAILED: 'The speech engine crashed or could not start (tried again while tries remain).',
  INVALID_TEXT_OR_VOICE:
    'Nothing speakable is left in the text once control characters are removed, or the engine does not know the voice.',
  TTS_FAILED: 'The speech engine failed on this text for another reason; the message says how. Not retried.',
  INVALID_JOB: 'The stored job lacks what its type needs (TTS: text, voice or media name; AI content: parts): a damaged record.',
  UNSUPPORTED_JOB_TYPE: 'This VoiceDesk cannot run jobs of this type.',
  STT_ENGINE_NOT_CONFIGURED:
    'No speech recognition server is set: `voicedesk stt-engine openai-compatible --base-url URL` (or Settings in the app) chooses one. Never a made-up transcript.',
  STT_ENGINE_FAILED:
    'The speech recognition server failed; the message says how (unreachable, timed out, an error answer). Tried again while tries remain when it may pass.',
  MEDIA_FETCH_FAILED:
    'The media URL could not be fetched: the message says why (an error status, a web page instead of media, an address webhooks may not reach, too many redirects, too slow or past the fetch deadline).',
  MEDIA_TOO_LARGE: 'The media is larger than this VoiceDesk takes (see "Media intake").',
  MEDIA_UNREADABLE: 'The media is not audio or video the decoder can read (corrupt, or another kind of file).',
  MEDIA_HAS_NO_AUDIO: 'The media has no audio track (a silent video).',
  DECODER_UNAVAILABLE:
    'The media decoder that ships with VoiceDesk could not start: the installation is damaged; the message names the package to reinstall.',
  LLM_ENGINE_NOT_CONFIGURED:
    "No language-model engine is configured, so the translation cannot run: choose one with `voicedesk ai-engine openai-compatible --base-url URL --model NAME` (or in the app's Settings), then retry the job.",
  LLM_ENGINE_FAILED:
    'The language-model engine failed on the translation; the message says how (the server could not be reached, did not answer in time, answered an error, or did not answer with the translation asked for). Not retried.',
  CONVERSATION_NOT_STARTED: 'No socket opened the conversation within a minute of conversation-init.',
  CALL_INTERRUPTED: 'The service running the call stopped (a crash or a kill) mid-call; the transcript up to then is kept.',
  AGENT_MISSING: "The conversation's voice agent was deleted before the call could start.",
  TOO_MANY_CALLS:
    'The service already ran as many calls as it takes at once (`voicedesk serve --max-calls`, 50 by default) when the socket connected; start a new conversation once one ends.',
  DIALOGUE_ENGINE_FAILED:
    'The dialogue engine (the AI engine chosen for calls) failed mid-call; the message says how (e.g. the model server could not be reached).',
  CALL_BUSY: 'The softphone an outbound call rang was busy (SIP 486 or 600).',
  CALL_NO_ANSWER:
    'The softphone an outbound call rang did not answer before the ring timeout (the call was cancelled), or said it could not (480).',
  CALL_REJECTED: 'The softphone an outbound call rang declined it (SIP 603 or another refusal), or answered without G.711 audio.',
  CALL_UNREACHABLE: 'Nothing answered the INVITE of an outbound call (the softphone is gone), or it answered with a server error (5xx).',
  CRASHED: "VoiceDesk stopped (a crash or a kill) during each of the job's 3 tries; it is not tried again.",
  INTERNAL: 'A fault of VoiceDesk; the service log has the details.',
} as const

export type JobErrorCode = keyof typeof JOB_ERROR_MEANINGS

export const JOB_ERROR_CODES = Object.keys(JOB_ERROR_MEANINGS) as [JobErrorCode, ...JobErrorCode[]]

export const JobErrorCodeSchema = z
  .enum(JOB_ERROR_CODES)
  .meta({ id: 'JobErrorCode', description: 'Why a job FAILED (docs/api.md, "Jobs")' })
