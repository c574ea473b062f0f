import type { CallSession } from '../../conversations/call-session'
import { CALL_SAMPLE_RATE } from '../../conversations/call-audio'
import { float32FromInt16, int16FromBase64 } from '../../engines/audio/pcm-encoding'
import type { Resampler } from '../../engines/audio/speex-resampler'
import type { ServerFrame } from '../../shared/api/stream-frames'
import { decodeG711, G711_SAMPLE_RATE } from './g711'
import { KeypadEntry, keypadEventOf } from './keypad'
import type { CallMedia, MediaPlane } from './media-plane'
import { sends, type NegotiatedMedia } from './sdp-negotiation'

/** What a bridge asks of its call (inbound or outbound). */
export interface BridgedCall {
  /** The call's session, once connected. */
  session(): CallSession | undefined
  /** Whether the far end's packets are taken now (an inbound call until it ends, an outbound one once answered). */
  hearing(): boolean
  /** The media thread stopped under the call: it has no audio any more. */
  lost(): void
}

export interface RtpBridgeDeps {
  media: MediaPlane
  /** The line's address: the call's RTP socket listens there. */
  host: string
  resampler: (fromRate: number, toRate: number) => Promise<Resampler>
  keypadPauseMs?: number
}

/**
 * A SIP call's audio between its call session and its RTP channel (the media thread's socket),
 * the same for a call the line answers and one the agent places. The far end's packets go into
 * the session as the web SDK's microphone frames would (G.711 at 8 kHz decoded and resampled to
 * 16 kHz), and its RFC 4733 keys (once per event, at its first end packet) into the keypad entry,
 * with the SIP INFO keys the call hands over; the session's frames come out as RTP on the packet
 * clock (its audio resampled to 8 kHz and queued, a mark once the audio before it was sent, a
 * clear dropping what is queued).
 */
export class RtpBridge {
  private media: NegotiatedMedia | undefined
  private lastKeyEvent: number | undefined
  private readonly keypad: KeypadEntry
  private fromFarEnd: Resampler | undefined
  private toFarEnd: Resampler | undefined
  private closed = false

  private constructor(
    /** The call's RTP socket: its address and port for the SDP, and play() once the call is answered. */
    readonly rtp: CallMedia,
    fromFarEnd: Resampler,
    toFarEnd: Resampler,
    private readonly call: BridgedCall,
    keypadPauseMs: number | undefined,
  ) {
    this.fromFarEnd = fromFarEnd
    this.toFarEnd = toFarEnd
    this.keypad = new KeypadEntry((keys) => this.call.session()?.keysPressed(keys), keypadPauseMs)
  }

  /** A call's RTP socket on the line's address and its two resamplers; on a failure, what was opened is closed again. */
  static async open(deps: RtpBridgeDeps, call: BridgedCall): Promise<RtpBridge> {
    let bridge: RtpBridge | undefined
    const rtp = await deps.media.open(deps.host, {
      packet: (payloadType, payload, timestamp) => bridge?.fromRtp(payloadType, payload, timestamp),
      // The web SDK's player echoes a mark once it played the audio before it; the media thread does, once it sent it.
      marked: (name) => call.session()?.receive({ event: 'mark', mark: { name } }),
      lost: () => call.lost(),
    })
    let fromFarEnd: Resampler | undefined
    try {
      fromFarEnd = await deps.resampler(G711_SAMPLE_RATE, CALL_SAMPLE_RATE)
      const toFarEnd = await deps.resampler(CALL_SAMPLE_RATE, G711_SAMPLE_RATE)
      bridge = new RtpBridge(rtp, fromFarEnd, toFarEnd, call, deps.keypadPauseMs)
      return bridge
    } catch (error) {
      rtp.close()
      fromFarEnd?.dispose()
      throw error
    }
  }

  /** The media thread sends with what the SDP settled, to where it says (nothing while the far end holds the call). */
  use(media: NegotiatedMedia): void {
    this.media = media
    this.rtp.setRemote(media.remote)
    this.rtp.setMedia({ codec: media.codec, payloadType: media.payloadType, sending: sends(media.direction) })
  }

  /** A key the far end sent in a SIP INFO. */
  press(key: string): void {
    this.keypad.press(key)
  }

  /** What the call session sends, in the web SDK's frames: audio to the packet queue, a mark echoed once played, a clear drops the queue. */
  frame(frame: ServerFrame): void {
    switch (frame.event) {
      case 'media':
        if (this.toFarEnd) this.rtp.audio(this.toFarEnd.push(int16FromBase64(frame.media.payload)))
        return
      case 'mark':
        // The utterance's tail leaves the resampler first: the mark comes back once all of it was sent.
        if (this.toFarEnd) this.rtp.audio(this.toFarEnd.flush())
        return this.rtp.mark(frame.mark.name)
      case 'clear':
        this.toFarEnd?.flush()
        return this.rtp.clear()
      default:
        return
    }
  }

  /** No more audio either way: the keypad entry, the RTP socket and the resamplers closed. */
  close(): void {
    if (this.closed) return
    this.closed = true
    this.keypad.close()
    this.rtp.close()
    this.toFarEnd?.dispose()
    this.toFarEnd = undefined
    this.fromFarEnd?.dispose()
    this.fromFarEnd = undefined
  }

  /** A packet from the far end: audio into the call, or a key (RFC 4733: once per event, at its first end packet). */
  private fromRtp(payloadType: number, payload: Uint8Array, timestamp: number): void {
    const { media, fromFarEnd } = this
    const session = this.call.session()
    if (!media || !session || !fromFarEnd || !this.call.hearing()) return
    if (payloadType === media.payloadType) {
      const samples = fromFarEnd.push(decodeG711(media.codec, payload))
      if (samples.length > 0) session.hearSamples(float32FromInt16(samples))
      return
    }
    if (payloadType === media.telephoneEventPayloadType) {
      const event = keypadEventOf(new DataView(payload.buffer, payload.byteOffset, payload.byteLength))
      if (!event?.end || timestamp === this.lastKeyEvent) return
      this.lastKeyEvent = timestamp
      this.keypad.press(event.key)
    }
  }
}
