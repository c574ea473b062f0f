import type { AccountsRepository } from '../ports'
import type { ApiKeyRecord, KeyIdentity, ProjectRecord } from '../records'
import type { Db } from './db'

const KEY_COLUMNS = `id, project_id AS "projectId", user_id AS "userId", name, key_hash AS "keyHash", key_hint AS "keyHint",
  created_at AS "createdAt", last_used_at AS "lastUsedAt", revoked_at AS "revokedAt"`

/** Projects, the local user and API keys: who may call the service and what they see. */
export class PostgresAccountsRepository implements AccountsRepository {
  constructor(private readonly db: Db) {}

  async findDefaultProject(): Promise<ProjectRecord | undefined> {
    const { rows } = await this.db.query<ProjectRecord>(
      'SELECT id, name, is_default AS "isDefault", created_at AS "createdAt" FROM projects WHERE is_default',
    )
    return rows[0]
  }

  async findProject(id: string): Promise<ProjectRecord | undefined> {
    const { rows } = await this.db.query<ProjectRecord>(
      'SELECT id, name, is_default AS "isDefault", created_at AS "createdAt" FROM projects WHERE id = $1',
      [id],
    )
    return rows[0]
  }

  async insertProject(project: ProjectRecord): Promise<void> {
    await this.db.query('INSERT INTO projects (id, name, is_default, created_at) VALUES ($1, $2, $3, $4)', [
      project.id,
      project.name,
      project.isDefault,
      project.createdAt,
    ])
  }

  async findLocalUserId(): Promise<string | undefined> {
    const { rows } = await this.db.query<{ id: string }>('SELECT id FROM users WHERE is_local')
    return rows[0]?.id
  }

  async insertLocalUser(id: string, name: string, createdAt: string): Promise<void> {
    await this.db.query('INSERT INTO users (id, name, is_local, created_at) VALUES ($1, $2, true, $3)', [id, name, createdAt])
  }

  async insertKey(key: Omit<ApiKeyRecord, 'lastUsedAt' | 'revokedAt'>): Promise<void> {
    await this.db.query(
      'INSERT INTO api_keys (id, project_id, user_id, name, key_hash, key_hint, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [key.id, key.projectId, key.userId, key.name, key.keyHash, key.keyHint, key.createdAt],
    )
  }

  /** The hot path of every request: one indexed lookup. */
  async findActiveKeyByHash(keyHash: string): Promise<KeyIdentity | undefined> {
    const { rows } = await this.db.query<KeyIdentity>(
      'SELECT id AS "apiKeyId", project_id AS "projectId", user_id AS "userId" FROM api_keys WHERE key_hash = $1 AND revoked_at IS NULL',
      [keyHash],
    )
    return rows[0]
  }

  async findKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const { rows } = await this.db.query<ApiKeyRecord>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE key_hash = $1`, [keyHash])
    return rows[0]
  }

  async findKey(id: string): Promise<ApiKeyRecord | undefined> {
    const { rows } = await this.db.query<ApiKeyRecord>(`SELECT ${KEY_COLUMNS} FROM api_keys WHERE id = $1`, [id])
    return rows[0]
  }

  async listKeys(projectId: string): Promise<ApiKeyRecord[]> {
    const { rows } = await this.db.query<ApiKeyRecord>(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE project_id = $1 ORDER BY created_at, id`,
      [projectId],
    )
    return rows
  }

  async touchKey(id: string, at: string): Promise<void> {
    await this.db.query('UPDATE api_keys SET last_used_at = $1 WHERE id = $2', [at, id])
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    const { rowCount } = await this.db.query('UPDATE api_keys SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [at, id])
    return rowCount === 1
  }

  async restoreKey(id: string): Promise<void> {
    await this.db.query('UPDATE api_keys SET revoked_at = NULL WHERE id = $1', [id])
  }
}
