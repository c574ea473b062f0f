/*
 * DTMF, the keys of a phone's keypad: RFC 4733 events in RTP and SIP INFO bodies
 * (application/dtmf-relay, application/dtmf), and the keys gathered into one caller entry.
 */

/** RFC 4733's event codes 0-15 as keys. */
const EVENT_KEYS = '0123456789*#ABCD'

/** An RFC 4733 event payload: its key and whether this packet ends it (the E bit). Undefined for other events or short payloads. */
export function keypadEventOf(payload: DataView): { key: string; end: boolean } | undefined {
  if (payload.byteLength < 4) return undefined
  const key = EVENT_KEYS[payload.getUint8(0)]
  if (key === undefined) return undefined
  return { key, end: (payload.getUint8(1) & 0x80) !== 0 }
}

/** The key of a SIP INFO body: `Signal=5` (application/dtmf-relay) or a bare `5` (application/dtmf). */
export function keyOfInfo(contentType: string, body: string): string | undefined {
  const type = contentType.split(';')[0]?.trim().toLowerCase()
  let value: string | undefined
  if (type === 'application/dtmf-relay') value = /^\s*signal\s*=\s*(\S+)\s*$/im.exec(body)?.[1]
  else if (type === 'application/dtmf') value = body.trim()
  if (value === undefined) return undefined
  const upper = value.toUpperCase()
  if (upper.length === 1 && EVENT_KEYS.includes(upper)) return upper
  // Some phones send the event code (10 for *, 11 for #).
  const code = Number(value)
  return Number.isInteger(code) && code >= 0 && code < EVENT_KEYS.length ? EVENT_KEYS[code] : undefined
}

/** How long after the last key an entry counts as finished. */
export const KEYPAD_PAUSE_MS = 2_000
/** The longest entry: more keys end it there. */
const MAX_ENTRY_KEYS = 64

/**
 * Keys gathered into one entry: it ends with `#` (not part of it), after KEYPAD_PAUSE_MS with
 * no key, or at MAX_ENTRY_KEYS; `entered` gets its keys ("4217", "*5").
 */
export class KeypadEntry {
  private keys = ''
  private timer: ReturnType<typeof setTimeout> | undefined
  private closed = false

  constructor(
    private readonly entered: (keys: string) => void,
    private readonly pauseMs = KEYPAD_PAUSE_MS,
  ) {}

  press(key: string): void {
    if (this.closed) return
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    if (key === '#') return this.finish()
    this.keys += key
    if (this.keys.length >= MAX_ENTRY_KEYS) return this.finish()
    this.timer = setTimeout(() => this.finish(), this.pauseMs)
  }

  close(): void {
    this.closed = true
    if (this.timer !== undefined) clearTimeout(this.timer)
  }

  private finish(): void {
    const keys = this.keys
    this.keys = ''
    if (keys) this.entered(keys)
  }
}
