import * as alawmulawModule from 'alawmulaw'

/*
 * G.711, the telephone network's codecs: µ-law (PCMU, RTP payload type 0) and A-law (PCMA, 8),
 * 8 kHz, one byte a sample (alawmulaw does the companding).
 */

type Codecs = typeof alawmulawModule
// Node loads the package's CommonJS build, whose exports arrive as the default export; a bundler may give the ES build's names.
const codecs: Codecs = (alawmulawModule as Codecs & { default?: Codecs }).default ?? alawmulawModule

export type G711Codec = 'PCMU' | 'PCMA'

/** The static RTP payload types of RFC 3551. */
export const G711_PAYLOAD_TYPES: Readonly<Record<G711Codec, number>> = { PCMU: 0, PCMA: 8 }

/** G.711's rate. */
export const G711_SAMPLE_RATE = 8_000

export function decodeG711(codec: G711Codec, bytes: Uint8Array): Int16Array {
  return codec === 'PCMU' ? codecs.mulaw.decode(bytes) : codecs.alaw.decode(bytes)
}

export function encodeG711(codec: G711Codec, samples: Int16Array): Uint8Array {
  return codec === 'PCMU' ? codecs.mulaw.encode(samples) : codecs.alaw.encode(samples)
}
