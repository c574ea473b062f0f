import type { Migration } from '../migrate'

/**
 * Voice dictionaries (words as JSON text) and the agents each is active for. Deleting a
 * dictionary or an agent deletes its activations; `seq` keeps the order they were made in.
 * Both tables notify voicedesk_changes as the others do (0005), for other instances' caches.
 */
export const voiceDictionaries: Migration = {
  version: 14,
  name: 'voice-dictionaries',
  sql: `
    CREATE TABLE voice_dictionaries (
      id          text COLLATE "C" NOT NULL PRIMARY KEY,
      project_id  text COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      api_key_id  text COLLATE "C" NOT NULL,
      name        text NOT NULL,
      words       text NOT NULL,
      seq         bigserial NOT NULL,
      created_at  text COLLATE "C" NOT NULL,
      updated_at  text COLLATE "C" NOT NULL
    );
    CREATE INDEX voice_dictionaries_by_project ON voice_dictionaries (project_id, created_at);
    CREATE TABLE voice_dictionary_agents (
      seq            bigserial PRIMARY KEY,
      dictionary_id  text COLLATE "C" NOT NULL REFERENCES voice_dictionaries (id) ON DELETE CASCADE,
      agent_id       text COLLATE "C" NOT NULL REFERENCES voice_agents (id) ON DELETE CASCADE,
      project_id     text COLLATE "C" NOT NULL,
      activated_at   text COLLATE "C" NOT NULL,
      UNIQUE (dictionary_id, agent_id)
    );
    CREATE INDEX voice_dictionary_agents_by_agent ON voice_dictionary_agents (agent_id, seq);
    ${['voice_dictionaries', 'voice_dictionary_agents']
      .map(
        (table) => `
    CREATE TRIGGER ${table}_changed_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION voicedesk_notify_change();
    CREATE TRIGGER ${table}_changed_update AFTER UPDATE ON ${table} REFERENCING NEW TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION voicedesk_notify_change();
    CREATE TRIGGER ${table}_changed_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION voicedesk_notify_change();`,
      )
      .join('')}
  `,
}
