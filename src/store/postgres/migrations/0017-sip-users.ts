import type { Migration } from '../migrate'

/**
 * The SIP line's users (softphones that register, and whom the agents call): service-wide, not
 * a project's. Only the digest's HA1 is kept (MD5 of name:realm:password), never the password.
 * And the SIP line's lookup of a dialled number across projects (findEverywhere) gets its index.
 */
export const sipUsers: Migration = {
  version: 17,
  name: 'sip-users',
  sql: `
    CREATE TABLE sip_users (
      name        text COLLATE "C" NOT NULL PRIMARY KEY,
      ha1_md5     text COLLATE "C" NOT NULL,
      created_at  text COLLATE "C" NOT NULL,
      updated_at  text COLLATE "C" NOT NULL
    );
    CREATE INDEX phone_numbers_by_number ON phone_numbers (number, created_at, id);
  `,
}
