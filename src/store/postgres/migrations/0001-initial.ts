import type { Migration } from '../migrate'

/**
 * The SQLite schema's first tables, in PostgreSQL's types. Identifiers, times (ISO 8601 text,
 * byte for byte what the contract shows) and every text that is sorted or compared use the
 * "C" collation: the order of bytes, as in SQLite, whatever the database's locale.
 */
export const initial: Migration = {
  version: 1,
  name: 'initial',
  sql: `
    CREATE TABLE projects (
      id          text COLLATE "C" PRIMARY KEY,
      name        text NOT NULL,
      is_default  boolean NOT NULL DEFAULT false,
      created_at  text COLLATE "C" NOT NULL
    );
    CREATE UNIQUE INDEX projects_single_default ON projects (is_default) WHERE is_default;

    CREATE TABLE users (
      id          text COLLATE "C" PRIMARY KEY,
      name        text NOT NULL,
      is_local    boolean NOT NULL DEFAULT false,
      created_at  text COLLATE "C" NOT NULL
    );
    CREATE UNIQUE INDEX users_single_local ON users (is_local) WHERE is_local;

    CREATE TABLE api_keys (
      id            text COLLATE "C" PRIMARY KEY,
      project_id    text COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      user_id       text COLLATE "C" NOT NULL REFERENCES users (id),
      name          text NOT NULL,
      key_hash      text COLLATE "C" NOT NULL UNIQUE,
      key_hint      text NOT NULL,
      created_at    text COLLATE "C" NOT NULL,
      last_used_at  text COLLATE "C",
      revoked_at    text COLLATE "C"
    );
    CREATE INDEX api_keys_by_project ON api_keys (project_id, created_at, id);

    CREATE TABLE voice_agents (
      id                      text COLLATE "C" PRIMARY KEY,
      project_id              text COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      api_key_id              text COLLATE "C" NOT NULL REFERENCES api_keys (id),
      agent_name              text COLLATE "C" NOT NULL,
      description             text COLLATE "C" NOT NULL DEFAULT '',
      greeting_message        text NOT NULL DEFAULT '',
      preamble                text NOT NULL DEFAULT '',
      lang                    text NOT NULL CHECK (lang IN ('ar', 'en')),
      poke_messages           text NOT NULL DEFAULT '[]',
      real_time               boolean NOT NULL,
      silence_threshold       integer NOT NULL,
      interrupt               boolean NOT NULL,
      outcome                 text NOT NULL DEFAULT '',
      outcome_response_shape  text,
      voice_id                text NOT NULL,
      tools                   text NOT NULL DEFAULT '{}',
      params                  text NOT NULL DEFAULT '{}',
      webhook_url             text,
      webhook_auth_key        text,
      webhook_auth_secret     text,
      source_id               text COLLATE "C",
      created_at              text COLLATE "C" NOT NULL,
      updated_at              text COLLATE "C" NOT NULL
    );
    CREATE INDEX voice_agents_by_project ON voice_agents (project_id, created_at DESC, id DESC);

    CREATE TABLE phone_numbers (
      id                     text COLLATE "C" PRIMARY KEY,
      project_id             text COLLATE "C" NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
      api_key_id             text COLLATE "C" NOT NULL REFERENCES api_keys (id),
      user_id                text COLLATE "C" NOT NULL REFERENCES users (id),
      number                 text COLLATE "C" NOT NULL,
      label                  text COLLATE "C" NOT NULL,
      type                   text NOT NULL,
      provider_account_sid   text NOT NULL,
      provider_auth_token    text NOT NULL,
      voice_agent_id         text COLLATE "C" REFERENCES voice_agents (id) ON DELETE SET NULL,
      created_at             text COLLATE "C" NOT NULL,
      updated_at             text COLLATE "C" NOT NULL,
      UNIQUE (project_id, number)
    );
    CREATE INDEX phone_numbers_by_project ON phone_numbers (project_id, created_at DESC, id DESC);
    CREATE INDEX phone_numbers_by_agent ON phone_numbers (voice_agent_id);

    CREATE TABLE settings (
      key    text COLLATE "C" PRIMARY KEY,
      value  text NOT NULL
    );
  `,
}
