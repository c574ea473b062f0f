import type { Migration } from '../migrate'

const TABLES = [
  'projects',
  'users',
  'api_keys',
  'voice_agents',
  'phone_numbers',
  'settings',
  'jobs',
  'webhook_deliveries',
  'webhook_attempts',
]

/**
 * Store.changeVersion across instances: every statement that changed a row of a table the
 * service reads NOTIFYs the channel voicedesk_changes. NOTIFY is transactional (delivered when
 * the transaction commits, never when it rolls back) and PostgreSQL folds identical
 * notifications of one transaction into one, so a transaction costs one message however many
 * rows it wrote. A statement that changed nothing (a claim that found no job) sends none.
 * The payload names the writing instance (the setting voicedesk.instance its connections
 * carry; empty for any other writer), so an instance can skip the echo of its own commits.
 * Media is left out: no cache derives from it.
 */
export const changeNotifications: Migration = {
  version: 5,
  name: 'change-notifications',
  sql: `
    CREATE FUNCTION voicedesk_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF EXISTS (SELECT 1 FROM changed_rows) THEN
        PERFORM pg_notify('voicedesk_changes', coalesce(current_setting('voicedesk.instance', true), ''));
      END IF;
      RETURN NULL;
    END $$;
    ${TABLES.map(
      (table) => `
    CREATE TRIGGER ${table}_changed_insert AFTER INSERT ON ${table} REFERENCING NEW TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION voicedesk_notify_change();
    CREATE TRIGGER ${table}_changed_update AFTER UPDATE ON ${table} REFERENCING NEW TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION voicedesk_notify_change();
    CREATE TRIGGER ${table}_changed_delete AFTER DELETE ON ${table} REFERENCING OLD TABLE AS changed_rows
      FOR EACH STATEMENT EXECUTE FUNCTION voicedesk_notify_change();`,
    ).join('')}
  `,
}
