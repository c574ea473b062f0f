import type { Migration } from '../migrate'

export const initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
    CREATE TABLE projects (
      id          TEXT PRIMARY KEY,
      name        TEXT NOT NULL,
      is_default  INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
      created_at  TEXT NOT NULL
    );
    CREATE UNIQUE INDEX projects_single_default ON projects (is_default) WHERE is_default = 1;

    CREATE TABLE users (
      id          TEXT PRIMARY KEY,
      name        TEXT NOT NULL,
      is_local    INTEGER NOT NULL DEFAULT 0 CHECK (is_local IN (0, 1)),
      created_at  TEXT NOT NULL
    );
    CREATE UNIQUE INDEX users_single_local ON users (is_local) WHERE is_local = 1;

    CREATE TABLE api_keys (
      id            TEXT PRIMARY KEY,
      project_id    TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      user_id       TEXT NOT NULL REFERENCES users (id),
      name          TEXT NOT NULL,
      key_hash      TEXT NOT NULL UNIQUE,
      key_hint      TEXT NOT NULL,
      created_at    TEXT NOT NULL,
      last_used_at  TEXT,
      revoked_at    TEXT
    );
    CREATE INDEX api_keys_by_project ON api_keys (project_id, created_at);

    CREATE TABLE voice_agents (
      id                      TEXT PRIMARY KEY,
      project_id              TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      api_key_id              TEXT NOT NULL REFERENCES api_keys (id),
      agent_name              TEXT NOT NULL,
      description             TEXT NOT NULL DEFAULT '',
      greeting_message        TEXT NOT NULL DEFAULT '',
      preamble                TEXT NOT NULL DEFAULT '',
      lang                    TEXT NOT NULL CHECK (lang IN ('ar', 'en')),
      poke_messages           TEXT NOT NULL DEFAULT '[]',
      real_time               INTEGER NOT NULL CHECK (real_time IN (0, 1)),
      silence_threshold       INTEGER NOT NULL,
      interrupt               INTEGER NOT NULL CHECK (interrupt IN (0, 1)),
      outcome                 TEXT NOT NULL DEFAULT '',
      outcome_response_shape  TEXT,
      voice_id                TEXT NOT NULL,
      tools                   TEXT NOT NULL DEFAULT '{}',
      params                  TEXT NOT NULL DEFAULT '{}',
      webhook_url             TEXT,
      webhook_auth_key        TEXT,
      webhook_auth_secret     TEXT,
      source_id               TEXT,
      created_at              TEXT NOT NULL,
      updated_at              TEXT NOT NULL
    );
    CREATE INDEX voice_agents_by_project ON voice_agents (project_id, created_at DESC, id DESC);

    CREATE TABLE phone_numbers (
      id                     TEXT PRIMARY KEY,
      project_id             TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      api_key_id             TEXT NOT NULL REFERENCES api_keys (id),
      user_id                TEXT NOT NULL REFERENCES users (id),
      number                 TEXT NOT NULL,
      label                  TEXT NOT NULL,
      type                   TEXT NOT NULL,
      provider_account_sid   TEXT NOT NULL,
      provider_auth_token    TEXT NOT NULL,
      voice_agent_id         TEXT REFERENCES voice_agents (id) ON DELETE SET NULL,
      created_at             TEXT NOT NULL,
      updated_at             TEXT NOT NULL,
      UNIQUE (project_id, number)
    );
    CREATE INDEX phone_numbers_by_project ON phone_numbers (project_id, created_at DESC, id DESC);
    CREATE INDEX phone_numbers_by_agent ON phone_numbers (voice_agent_id);

    CREATE TABLE settings (
      key    TEXT PRIMARY KEY,
      value  TEXT NOT NULL
    );
  `,
}
