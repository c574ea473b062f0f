import type { Migration } from '../migrate'

/**
 * The SIP line's users (softphones that register, and whom the agents call): service-wide, not
 * a project's. Only the digest's HA1 is kept (MD5 of name:realm:password), never the password.
 * And the SIP line's lookup of a dialled number across projects (findEverywhere) gets its index.
 */
export const sipUsers: Migration = {
  version: 13,
  name: 'sip-users',
  sql: `
    CREATE TABLE sip_users (
      name        TEXT NOT NULL PRIMARY KEY,
      ha1_md5     TEXT NOT NULL,
      created_at  TEXT NOT NULL,
      updated_at  TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE INDEX phone_numbers_by_number ON phone_numbers (number, created_at, id);
  `,
}
