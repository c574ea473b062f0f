import type { Database, Statement } from 'better-sqlite3'

export interface ProjectRecord {
  id: string
  name: string
  isDefault: boolean
  createdAt: string
}

export interface ApiKeyRecord {
  id: string
  projectId: string
  userId: string
  name: string
  keyHash: string
  keyHint: string
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
}

/** What a valid key grants: the identity every record it writes carries. */
export interface KeyIdentity {
  apiKeyId: string
  projectId: string
  userId: string
}

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
export class AccountsRepository {
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

  findDefaultProject(): ProjectRecord | undefined {
    const row = this.statements.defaultProject.get() as { id: string; name: string; created_at: string } | undefined
    return row && { id: row.id, name: row.name, isDefault: true, createdAt: row.created_at }
  }

  findProject(id: string): ProjectRecord | undefined {
    const row = this.statements.projectById.get(id) as { id: string; name: string; is_default: number; created_at: string } | undefined
    return row && { id: row.id, name: row.name, isDefault: row.is_default === 1, createdAt: row.created_at }
  }

  insertProject(project: ProjectRecord): void {
    this.statements.insertProject.run(project.id, project.name, project.isDefault ? 1 : 0, project.createdAt)
  }

  findLocalUserId(): string | undefined {
    return (this.statements.localUser.get() as { id: string } | undefined)?.id
  }

  insertLocalUser(id: string, name: string, createdAt: string): void {
    this.statements.insertUser.run(id, name, createdAt)
  }

  insertKey(key: Omit<ApiKeyRecord, 'lastUsedAt' | 'revokedAt'>): void {
    this.statements.insertKey.run(key)
  }

  /** The hot path of every request: one indexed lookup. */
  findActiveKeyByHash(keyHash: string): KeyIdentity | undefined {
    const row = this.statements.activeKeyByHash.get(keyHash) as { id: string; project_id: string; user_id: string } | undefined
    return row && { apiKeyId: row.id, projectId: row.project_id, userId: row.user_id }
  }

  findKeyByHash(keyHash: string): ApiKeyRecord | undefined {
    const row = this.statements.keyByHash.get(keyHash) as ApiKeyRow | undefined
    return row && toApiKey(row)
  }

  findKey(id: string): ApiKeyRecord | undefined {
    const row = this.statements.keyById.get(id) as ApiKeyRow | undefined
    return row && toApiKey(row)
  }

  listKeys(projectId: string): ApiKeyRecord[] {
    return (this.statements.keysOfProject.all(projectId) as ApiKeyRow[]).map(toApiKey)
  }

  touchKey(id: string, at: string): void {
    this.statements.touchKey.run(at, id)
  }

  revokeKey(id: string, at: string): boolean {
    return this.statements.revokeKey.run(at, id).changes === 1
  }

  restoreKey(id: string): void {
    this.statements.restoreKey.run(id)
  }
}
