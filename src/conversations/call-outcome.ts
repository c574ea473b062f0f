import type { CallSessionOptions } from './call-session-options'

/**
 * The call's outcome, read from its transcript by the dialogue at the end, into the call's state:
 * the result, whether it is complete, and what kept it from being so. A dialogue that takes
 * longer than the limit (a model server that hangs) gives no result and says why.
 */
export async function extractCallOutcome(options: Pick<CallSessionOptions, 'state' | 'dialogue' | 'limits' | 'agent'>): Promise<void> {
  const { state, dialogue, limits, agent } = options
  const signal = AbortSignal.timeout(limits.outcomeTimeoutMs)
  try {
    const outcome = await Promise.race([
      dialogue.outcome(
        state.transcript.filter((turn) => turn.content).map((turn) => ({ role: turn.role, text: turn.content })),
        signal,
      ),
      new Promise<never>((_, reject) =>
        signal.addEventListener('abort', () => reject(new Error(`The outcome took longer than ${limits.outcomeTimeoutMs} ms`)), {
          once: true,
        }),
      ),
    ])
    state.outcomeResult = outcome.result ?? null
    state.outcomeComplete = agent.outcomeResponseShape ? outcome.complete : null
    if (outcome.problems?.length) state.outcomeProblems = outcome.problems
  } catch (error) {
    state.outcomeResult = null
    state.outcomeComplete = false
    state.outcomeProblems = [(error as Error).message]
  }
}
