import type { Migration } from '../migrate'

/**
 * Every version of an agent: the agent's columns as they were, numbered 1, 2, 3… per agent,
 * with when and from what (`source`) it was made. Deleting an agent deletes its versions.
 * Agents that exist before this migration get version 1, their state now (source `migration`).
 * No change-notification trigger: a version is only ever written with its agent's row.
 */
export const agentVersions: Migration = {
  version: 12,
  name: 'agent-versions',
  sql: `
    CREATE TABLE voice_agent_versions (
      id                      text COLLATE "C" NOT NULL REFERENCES voice_agents (id) ON DELETE CASCADE,
      version                 integer NOT NULL CHECK (version >= 1),
      source                  text COLLATE "C" NOT NULL,
      versioned_at            text COLLATE "C" NOT NULL,
      project_id              text COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      api_key_id              text COLLATE "C" NOT NULL,
      agent_name              text COLLATE "C" NOT NULL,
      description             text COLLATE "C" NOT NULL,
      greeting_message        text NOT NULL,
      preamble                text NOT NULL,
      lang                    text NOT NULL CHECK (lang IN ('ar', 'en')),
      poke_messages           text NOT NULL,
      real_time               boolean NOT NULL,
      silence_threshold       integer NOT NULL,
      end_of_turn_silence_ms  integer NOT NULL,
      max_caller_turn_seconds integer NOT NULL,
      interrupt               boolean NOT NULL,
      outcome                 text NOT NULL,
      outcome_response_shape  text,
      voice_id                text NOT NULL,
      tools                   text NOT NULL,
      params                  text NOT NULL,
      webhook_url             text,
      webhook_auth_key        text,
      webhook_auth_secret     text,
      source_id               text COLLATE "C",
      created_at              text COLLATE "C" NOT NULL,
      updated_at              text COLLATE "C" NOT NULL,
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
