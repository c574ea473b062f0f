import { parse, write, type MediaDescription, type SessionDescription } from 'sdp-transform'
import { G711_PAYLOAD_TYPES, G711_SAMPLE_RATE, type G711Codec } from './g711'

/*
 * The SDP offer/answer of a SIP call (RFC 3264): the first audio stream of the offer, answered
 * with the first of its codecs VoiceDesk speaks (G.711 µ-law or A-law at 8 kHz) and RFC 4733
 * `telephone-event` when offered. Other streams are declined (port 0), as the answer must list
 * every stream of the offer.
 */

export type MediaDirection = 'sendrecv' | 'sendonly' | 'recvonly' | 'inactive'

/** What an offer and its answer settled. */
export interface NegotiatedMedia {
  codec: G711Codec
  payloadType: number
  /** The payload type of RFC 4733 events, when the offer has them. */
  telephoneEventPayloadType: number | undefined
  /** Where the caller wants the agent's RTP (and where the caller's RTP must come from). */
  remote: { address: string; port: number }
  /** The answer's direction, from VoiceDesk's side: it sends audio only when this is sendrecv or sendonly. */
  direction: MediaDirection
  /** The offer's streams, for an answer that lists each (declined ones with port 0). */
  offer: SessionDescription
  /** The index of the audio stream taken. */
  streamIndex: number
}

export type Negotiation = { ok: true; media: NegotiatedMedia } | { ok: false; problem: string }

/** The answer's direction for an offer's: a caller who only sends (hold) hears nothing from us, and so on. */
const ANSWER_DIRECTION: Readonly<Record<MediaDirection, MediaDirection>> = {
  sendrecv: 'sendrecv',
  sendonly: 'recvonly',
  recvonly: 'sendonly',
  inactive: 'inactive',
}

/** Whether VoiceDesk sends audio in this direction of its answer. */
export function sends(direction: MediaDirection): boolean {
  return direction === 'sendrecv' || direction === 'sendonly'
}

/** Reads an offer and picks what the answer says; a problem (for a 488's Warning) when nothing fits. */
export function negotiate(offerText: string): Negotiation {
  let offer: SessionDescription
  try {
    offer = parse(offerText)
  } catch {
    return { ok: false, problem: 'The SDP offer could not be read' }
  }
  if (!Array.isArray(offer.media) || offer.media.length === 0) return { ok: false, problem: 'The SDP offer has no media stream' }
  const streamIndex = offer.media.findIndex((media) => media.type === 'audio' && media.port > 0 && /^RTP\/AVP$/i.test(media.protocol ?? ''))
  const media = offer.media[streamIndex]
  if (!media) return { ok: false, problem: 'The SDP offer has no RTP/AVP audio stream (SRTP and WebRTC are not spoken here)' }
  const address = media.connection?.ip ?? offer.connection?.ip
  if (!address) return { ok: false, problem: 'The SDP offer has no connection address (c=)' }
  const chosen = firstG711(media)
  if (!chosen) return { ok: false, problem: 'None of the offered codecs is G.711 µ-law (PCMU) or A-law (PCMA) at 8000 Hz' }
  const offered = media.direction ?? offer.direction ?? 'sendrecv'
  // An old-style hold: the connection address 0.0.0.0 means "send me nothing".
  const direction = address === '0.0.0.0' ? 'inactive' : ANSWER_DIRECTION[offered]
  return {
    ok: true,
    media: {
      ...chosen,
      telephoneEventPayloadType: telephoneEventOf(media),
      remote: { address, port: media.port },
      direction,
      offer,
      streamIndex,
    },
  }
}

/** The offer's first codec, in its order of preference, that is G.711 at 8 kHz (static types need no rtpmap). */
function firstG711(media: MediaDescription): { codec: G711Codec; payloadType: number } | undefined {
  const payloads = String(media.payloads ?? '')
    .trim()
    .split(/\s+/)
    .map(Number)
    .filter((value) => Number.isInteger(value) && value >= 0 && value <= 127)
  for (const payloadType of payloads) {
    const mapped = (media.rtp ?? []).find((entry) => entry.payload === payloadType)
    const codec = mapped ? mapped.codec.toUpperCase() : payloadType === 0 ? 'PCMU' : payloadType === 8 ? 'PCMA' : undefined
    const rate = mapped?.rate ?? G711_SAMPLE_RATE
    if ((codec === 'PCMU' || codec === 'PCMA') && rate === G711_SAMPLE_RATE) return { codec, payloadType }
  }
  return undefined
}

function telephoneEventOf(media: MediaDescription): number | undefined {
  return (media.rtp ?? []).find((entry) => entry.codec.toLowerCase() === 'telephone-event' && (entry.rate ?? 8000) === G711_SAMPLE_RATE)
    ?.payload
}

export interface LocalMedia {
  /** The address VoiceDesk's RTP socket listens on (and sends from). */
  address: string
  port: number
  /** o= line's session id and version: the version grows with each new answer of the same call. */
  sessionId: number
  sessionVersion: number
}

/** The answer: the chosen codec and telephone-event on the taken stream, every other stream declined. */
export function answerSdp(local: LocalMedia, negotiated: NegotiatedMedia): string {
  const media = negotiated.offer.media.map((offered, index): MediaDescription => {
    if (index !== negotiated.streamIndex) {
      return { type: offered.type, port: 0, protocol: offered.protocol, payloads: offered.payloads ?? '0', rtp: [], fmtp: [] }
    }
    const events = negotiated.telephoneEventPayloadType
    return {
      type: 'audio',
      port: local.port,
      protocol: 'RTP/AVP',
      payloads: [negotiated.payloadType, ...(events === undefined ? [] : [events])].join(' '),
      rtp: [
        { payload: negotiated.payloadType, codec: negotiated.codec, rate: G711_SAMPLE_RATE },
        ...(events === undefined ? [] : [{ payload: events, codec: 'telephone-event', rate: G711_SAMPLE_RATE }]),
      ],
      fmtp: events === undefined ? [] : [{ payload: events, config: '0-16' }],
      ptime: 20,
      direction: negotiated.direction,
    }
  })
  return sessionSdp(local, media)
}

/** VoiceDesk's codecs as an offer lists them (µ-law first), for tests and an outbound call's INVITE. */
export function offerSdp(local: LocalMedia): string {
  return sessionSdp(local, [
    {
      type: 'audio',
      port: local.port,
      protocol: 'RTP/AVP',
      payloads: `${G711_PAYLOAD_TYPES.PCMU} ${G711_PAYLOAD_TYPES.PCMA} 101`,
      rtp: [
        { payload: G711_PAYLOAD_TYPES.PCMU, codec: 'PCMU', rate: G711_SAMPLE_RATE },
        { payload: G711_PAYLOAD_TYPES.PCMA, codec: 'PCMA', rate: G711_SAMPLE_RATE },
        { payload: 101, codec: 'telephone-event', rate: G711_SAMPLE_RATE },
      ],
      fmtp: [{ payload: 101, config: '0-16' }],
      ptime: 20,
      direction: 'sendrecv',
    },
  ])
}

/** VoiceDesk's side of a session (o=, s=, c=, t=) around `media`, written. */
function sessionSdp(local: LocalMedia, media: MediaDescription[]): string {
  const ipVer = local.address.includes(':') ? 6 : 4
  return write({
    version: 0,
    origin: {
      username: 'voicedesk',
      sessionId: local.sessionId,
      sessionVersion: local.sessionVersion,
      netType: 'IN',
      ipVer,
      address: local.address,
    },
    name: 'VoiceDesk',
    connection: { version: ipVer, ip: local.address },
    timing: { start: 0, stop: 0 },
    media,
  })
}
