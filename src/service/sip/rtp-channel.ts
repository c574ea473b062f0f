import { createSocket, type Socket } from 'node:dgram'
import { randomInt } from 'node:crypto'
import { isRtp, RtpPacket } from 'rtp.js/packets'

/** The largest RTP datagram read: 20 ms of G.711 is 172 bytes; anything far larger is not a packet of this call. */
const MAX_DATAGRAM_BYTES = 2_048

export interface RtpChannelEvents {
  /** A media packet from the caller: its payload type and payload bytes. */
  packet(payloadType: number, payload: DataView, timestamp: number): void
  onError(error: unknown): void
}

/**
 * One call's RTP socket (UDP, on the SIP line's address, a free port). Packets are taken only
 * from the address and port the caller's SDP named (no latching: anything else, a stranger or a
 * caller behind NAT sending from elsewhere, is ignored); what is not RTP is ignored too. Sends
 * the agent's packets with a random SSRC, sequence number and timestamp start (RFC 3550).
 */
export class RtpChannel {
  private remote: { address: string; port: number } | undefined
  private readonly ssrc = randomInt(1, 2 ** 32 - 1)
  private sequence = randomInt(0, 2 ** 16)
  private timestamp = randomInt(0, 2 ** 32 - 1)
  private closed = false
  /** Packets from strangers (other addresses or ports) and datagrams that are not RTP, dropped. */
  ignored = 0

  private constructor(
    private readonly socket: Socket,
    readonly address: string,
    readonly port: number,
    private readonly events: RtpChannelEvents,
  ) {
    socket.on('message', (data, from) => this.receive(data, from.address, from.port))
    socket.on('error', (error) => events.onError(error))
  }

  /** Binds a socket on `address` (a free port). */
  static open(address: string, events: RtpChannelEvents): Promise<RtpChannel> {
    return new Promise((resolve, reject) => {
      const socket = createSocket(address.includes(':') ? 'udp6' : 'udp4')
      socket.once('error', reject)
      socket.bind(0, address, () => {
        socket.removeListener('error', reject)
        resolve(new RtpChannel(socket, address, socket.address().port, events))
      })
    })
  }

  /** Where the caller's RTP comes from and the agent's goes (from the SDP); a re-INVITE may move it. */
  setRemote(remote: { address: string; port: number }): void {
    this.remote = remote
  }

  /**
   * Sends one packet of `payload` and moves the timestamp on by `samples`; `marker` starts a
   * talkspurt. A packet not sent (on hold, nothing to say) still moves the timestamp: call `skip`.
   */
  send(payloadType: number, payload: Uint8Array, samples: number, marker: boolean): void {
    const remote = this.remote
    if (this.closed || !remote) return this.skip(samples)
    const packet = new RtpPacket()
    packet.setPayloadType(payloadType)
    packet.setSequenceNumber(this.sequence)
    packet.setTimestamp(this.timestamp)
    packet.setSsrc(this.ssrc)
    packet.setMarker(marker)
    packet.setPayload(new DataView(payload.buffer, payload.byteOffset, payload.byteLength))
    const view = packet.getView()
    this.sequence = (this.sequence + 1) & 0xffff
    this.skip(samples)
    try {
      this.socket.send(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), remote.port, remote.address, (error) => {
        if (error && !this.closed) this.events.onError(error)
      })
    } catch (error) {
      this.events.onError(error)
    }
  }

  /** Time passes with nothing sent (RFC 3550: the timestamp counts sampling instants, sent or not). */
  skip(samples: number): void {
    this.timestamp = (this.timestamp + samples) >>> 0
  }

  close(): void {
    if (this.closed) return
    this.closed = true
    this.socket.close()
  }

  private receive(data: Buffer, address: string, port: number): void {
    const remote = this.remote
    if (this.closed || !remote || address !== remote.address || port !== remote.port || data.length > MAX_DATAGRAM_BYTES) {
      this.ignored += 1
      return
    }
    let packet: RtpPacket
    try {
      const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
      if (!isRtp(view)) {
        this.ignored += 1
        return
      }
      packet = new RtpPacket(view)
    } catch {
      // A datagram that looked like RTP but is not a valid packet.
      this.ignored += 1
      return
    }
    try {
      this.events.packet(packet.getPayloadType(), packet.getPayload(), packet.getTimestamp())
    } catch (error) {
      this.events.onError(error)
    }
  }
}
