/** The rollups' units of time: a UTC quarter hour, or a UTC hour (both engines' analytics rollup migrations). */
export const QUARTER_HOUR = 15
export const HOUR = 60

/**
 * The outcome fields whose numeric values the rollup counts value by value: those named like a
 * rating (the satisfaction reads' rating fields). Other fields' values are read from the calls.
 */
export const RATING_FIELD_NAME = /rating|satisfaction|csat|nps|score/i

/**
 * A range [from, to) of creation times (ISO 8601) cut for a rollup of `slotMinutes` slots: the whole slots it
 * covers, [slotFrom, slotTo) as 'YYYY-MM-DDTHH:MM', are summed from the rollup; the jobs of the
 * partial slots at its two edges, [from, edgeFrom) and [edgeTo, to), are read one by one. A
 * range within one slot (or bounds that are no plain ISO time) is read one by one whole.
 */
export interface SlotSplit {
  slotFrom: string
  slotTo: string
  edgeFrom: string
  edgeTo: string
}

export function splitBySlots(from: string, to: string, slotMinutes: number): SlotSplit {
  const SLOT_MS = slotMinutes * 60_000
  const fromMs = Date.parse(from)
  const toMs = Date.parse(to)
  const first = Math.ceil(fromMs / SLOT_MS) * SLOT_MS
  const end = Math.floor(toMs / SLOT_MS) * SLOT_MS
  const plain = (ms: number) => {
    if (!Number.isFinite(ms)) return undefined
    const iso = new Date(ms).toISOString()
    return iso.length === 24 ? iso : undefined
  }
  const [firstIso, endIso] = [plain(first), plain(end)]
  if (firstIso === undefined || endIso === undefined || first >= end) return { slotFrom: '', slotTo: '', edgeFrom: to, edgeTo: to }
  return { slotFrom: firstIso.slice(0, 16), slotTo: endIso.slice(0, 16), edgeFrom: firstIso, edgeTo: endIso }
}
