import type { Migration } from '../migrate'

/**
 * Voice dictionaries (words as JSON text) and the agents each is active for. Deleting a
 * dictionary or an agent deletes its activations; `seq` keeps the order they were made in.
 */
export const voiceDictionaries: Migration = {
  version: 10,
  name: 'voice-dictionaries',
  sql: `
    CREATE TABLE voice_dictionaries (
      id          TEXT NOT NULL PRIMARY KEY,
      project_id  TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      api_key_id  TEXT NOT NULL,
      name        TEXT NOT NULL,
      words       TEXT NOT NULL,
      created_at  TEXT NOT NULL,
      updated_at  TEXT NOT NULL
    );
    CREATE INDEX voice_dictionaries_by_project ON voice_dictionaries (project_id, created_at);
    CREATE TABLE voice_dictionary_agents (
      seq            INTEGER PRIMARY KEY AUTOINCREMENT,
      dictionary_id  TEXT NOT NULL REFERENCES voice_dictionaries (id) ON DELETE CASCADE,
      agent_id       TEXT NOT NULL REFERENCES voice_agents (id) ON DELETE CASCADE,
      project_id     TEXT NOT NULL,
      activated_at   TEXT NOT NULL,
      UNIQUE (dictionary_id, agent_id)
    );
    CREATE INDEX voice_dictionary_agents_by_agent ON voice_dictionary_agents (agent_id, seq);
  `,
}
