import type { Migration } from '../migrate'

/** An agent's turn-taking: the silence that ends a caller's turn, and the longest caller turn. */
export const agentTurnTaking: Migration = {
  version: 11,
  name: 'agent-turn-taking',
  sql: `
    ALTER TABLE voice_agents ADD COLUMN end_of_turn_silence_ms integer NOT NULL DEFAULT 600;
    ALTER TABLE voice_agents ADD COLUMN max_caller_turn_seconds integer NOT NULL DEFAULT 15;
  `,
}
