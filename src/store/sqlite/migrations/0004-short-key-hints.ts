import type { Migration } from '../migrate'

/**
 * Key hints show at most the first 6 and the last 4 characters of a key (`vd_AbC…wXyZ`).
 * Hints stored before kept 7 at the start; they are cut to 6 (the key itself is not stored).
 */
export const shortKeyHints: Migration = {
  version: 4,
  name: 'short-key-hints',
  sql: `
    UPDATE api_keys
       SET key_hint = substr(key_hint, 1, 6) || substr(key_hint, instr(key_hint, '…'))
     WHERE instr(key_hint, '…') > 7;
  `,
}
