import type { Migration } from '../migrate'

/**
 * Media (the audio jobs make) in the database, where every instance reads it: one row per
 * name with its size, and its bytes in chunks of `chunk_size` (the last one shorter), so a
 * range request reads only the chunks it needs. Audio is compressed already: the chunks are
 * stored out of line without trying to compress them again (STORAGE EXTERNAL).
 */
export const media: Migration = {
  version: 4,
  name: 'media',
  sql: `
    CREATE TABLE media (
      name        text COLLATE "C" PRIMARY KEY,
      size        bigint NOT NULL,
      chunk_size  integer NOT NULL CHECK (chunk_size > 0),
      created_at  text COLLATE "C" NOT NULL
    );
    CREATE TABLE media_chunks (
      name   text COLLATE "C" NOT NULL REFERENCES media (name) ON DELETE CASCADE,
      chunk  integer NOT NULL,
      data   bytea NOT NULL,
      PRIMARY KEY (name, chunk)
    );
    ALTER TABLE media_chunks ALTER COLUMN data SET STORAGE EXTERNAL;
  `,
}
