import type { Migration } from '../migrate'

/**
 * Every version of an agent: the agent's columns as they were, numbered 1, 2, 3… per agent,
 * with when and from what (`source`) it was made. Deleting an agent deletes its versions.
 * Agents that exist before this migration get version 1, their state now (source `migration`).
 */
export const agentVersions: Migration = {
  version: 8,
  name: 'agent-versions',
  sql: `
    CREATE TABLE voice_agent_versions (
      id                      TEXT NOT NULL REFERENCES voice_agents (id) ON DELETE CASCADE,
      version                 INTEGER NOT NULL CHECK (version >= 1),
      source                  TEXT NOT NULL,
      versioned_at            TEXT NOT NULL,
      project_id              TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      api_key_id              TEXT NOT NULL,
      agent_name              TEXT NOT NULL,
      description             TEXT NOT NULL,
      greeting_message        TEXT NOT NULL,
      preamble                TEXT NOT NULL,
      lang                    TEXT NOT NULL CHECK (lang IN ('ar', 'en')),
      poke_messages           TEXT NOT NULL,
      real_time               INTEGER NOT NULL CHECK (real_time IN (0, 1)),
      silence_threshold       INTEGER NOT NULL,
      end_of_turn_silence_ms  INTEGER NOT NULL,
      max_caller_turn_seconds INTEGER NOT NULL,
      interrupt               INTEGER NOT NULL CHECK (interrupt IN (0, 1)),
      outcome                 TEXT NOT NULL,
      outcome_response_shape  TEXT,
      voice_id                TEXT NOT NULL,
      tools                   TEXT NOT NULL,
      params                  TEXT NOT NULL,
      webhook_url             TEXT,
      webhook_auth_key        TEXT,
      webhook_auth_secret     TEXT,
      source_id               TEXT,
      created_at              TEXT NOT NULL,
      updated_at              TEXT NOT NULL,
      PRIMARY KEY (id, version)
    );
    CREATE INDEX voice_agent_versions_by_project ON voice_agent_versions (project_id);
    INSERT INTO voice_agent_versions (id, version, source, versioned_at, project_id, api_key_id, agent_name, description,
      greeting_message, preamble, lang, poke_messages, real_time, silence_threshold, end_of_turn_silence_ms,
      max_caller_turn_seconds, interrupt, outcome, outcome_response_shape, voice_id, tools, params, webhook_url,
      webhook_auth_key, webhook_auth_secret, source_id, created_at, updated_at)
    SELECT id, 1, 'migration', updated_at, project_id, api_key_id, agent_name, description,
      greeting_message, preamble, lang, poke_messages, real_time, silence_threshold, end_of_turn_silence_ms,
      max_caller_turn_seconds, interrupt, outcome, outcome_response_shape, voice_id, tools, params, webhook_url,
      webhook_auth_key, webhook_auth_secret, source_id, created_at, updated_at
    FROM voice_agents;
  `,
}
