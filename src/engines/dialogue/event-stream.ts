import type { DialogueEvent } from './dialogue-engine'

/** A turn's events as the port yields them, stopping once `signal` aborts (a barge-in, the call's end). */
export async function* stream(events: readonly DialogueEvent[], signal?: AbortSignal): AsyncIterable<DialogueEvent> {
  for (const event of events) {
    if (signal?.aborted) return
    yield event
  }
}
