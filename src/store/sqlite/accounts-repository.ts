import type { Database, Statement } from 'better-sqlite3'
import type { AccountsRepository } from '../ports'
import type { ProjectRecord, ApiKeyRecord, KeyIdentity } from '../records'

interface ApiKeyRow {
  id: string
  project_id: string
  user_id: string
  name: string
  key_hash: string
  key_hint: string
  created_at: string
  last_used_at: string | null
  revoked_at: string | null
}

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    userId: row.user_id,
    name: row.name,
    keyHash: row.key_hash,
    keyHint: row.key_hint,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  }
}

/** Projects, the local user and API keys: who may call the service and what they see. */
export class SqliteAccountsRepository implements AccountsRepository {
  private readonly statements: {
    defaultProject: Statement
    projectById: Statement
    insertProject: Statement
    localUser: Statement
    insertUser: Statement
    insertKey: Statement
    activeKeyByHash: Statement
    keyByHash: Statement
    keyById: Statement
    keysOfProject: Statement
    touchKey: Statement
    revokeKey: Statement
    restoreKey: Statement
  }

  constructor(db: Database) {
    this.statements = {
      defaultProject: db.prepare('SELECT id, name, created_at FROM projects WHERE is_default = 1'),
      projectById: db.prepare('SELECT id, name, is_default, created_at FROM projects WHERE id = ?'),
      insertProject: db.prepare('INSERT INTO projects (id, name, is_default, created_at) VALUES (?, ?, ?, ?)'),
      localUser: db.prepare('SELECT id FROM users WHERE is_local = 1'),
      insertUser: db.prepare('INSERT INTO users (id, name, is_local, created_at) VALUES (?, ?, 1, ?)'),
      insertKey: db.prepare(`INSERT INTO api_keys (id, project_id, user_id, name, key_hash, key_hint, created_at)
        VALUES (@id, @projectId, @userId, @name, @keyHash, @keyHint, @createdAt)`),
      activeKeyByHash: db.prepare('SELECT id, project_id, user_id FROM api_keys WHERE key_hash = ? AND revoked_at IS NULL'),
      keyByHash: db.prepare('SELECT * FROM api_keys WHERE key_hash = ?'),
      keyById: db.prepare('SELECT * FROM api_keys WHERE id = ?'),
      keysOfProject: db.prepare('SELECT * FROM api_keys WHERE project_id = ? ORDER BY created_at, id'),
      touchKey: db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?'),
      revokeKey: db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL'),
      restoreKey: db.prepare('UPDATE api_keys SET revoked_at = NULL WHERE id = ?'),
    }
  }

  async findDefaultProject(): Promise<ProjectRecord | undefined> {
    const row = this.statements.defaultProject.get() as { id: string; name: string; created_at: string } | undefined
    return row && { id: row.id, name: row.name, isDefault: true, createdAt: row.created_at }
  }

  async findProject(id: string): Promise<ProjectRecord | undefined> {
    const row = this.statements.projectById.get(id) as { id: string; name: string; is_default: number; created_at: string } | undefined
    return row && { id: row.id, name: row.name, isDefault: row.is_default === 1, createdAt: row.created_at }
  }

  async insertProject(project: ProjectRecord): Promise<void> {
    this.statements.insertProject.run(project.id, project.name, project.isDefault ? 1 : 0, project.createdAt)
  }

  async findLocalUserId(): Promise<string | undefined> {
    return (this.statements.localUser.get() as { id: string } | undefined)?.id
  }

  async insertLocalUser(id: string, name: string, createdAt: string): Promise<void> {
    this.statements.insertUser.run(id, name, createdAt)
  }

  async insertKey(key: Omit<ApiKeyRecord, 'lastUsedAt' | 'revokedAt'>): Promise<void> {
    this.statements.insertKey.run(key)
  }

  /** The hot path of every request: one indexed lookup. */
  async findActiveKeyByHash(keyHash: string): Promise<KeyIdentity | undefined> {
    const row = this.statements.activeKeyByHash.get(keyHash) as { id: string; project_id: string; user_id: string } | undefined
    return row && { apiKeyId: row.id, projectId: row.project_id, userId: row.user_id }
  }

  async findKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
    const row = this.statements.keyByHash.get(keyHash) as ApiKeyRow | undefined
    return row && toApiKey(row)
  }

  async findKey(id: string): Promise<ApiKeyRecord | undefined> {
    const row = this.statements.keyById.get(id) as ApiKeyRow | undefined
    return row && toApiKey(row)
  }

  async listKeys(projectId: string): Promise<ApiKeyRecord[]> {
    return (this.statements.keysOfProject.all(projectId) as ApiKeyRow[]).map(toApiKey)
  }

  async touchKey(id: string, at: string): Promise<void> {
    this.statements.touchKey.run(at, id)
  }

  async revokeKey(id: string, at: string): Promise<boolean> {
    return this.statements.revokeKey.run(at, id).changes === 1
  }

  async restoreKey(id: string): Promise<void> {
    this.statements.restoreKey.run(id)
  }
}
