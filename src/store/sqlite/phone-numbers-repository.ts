import type { Database, Statement } from 'better-sqlite3'
import type { PhoneNumbersRepository } from '../ports'
import type { PhoneNumberRecord, PhoneNumberView, PhoneNumberFilter } from '../records'
import { holdsControlCharacter } from '../../shared/text/control-characters'
import { likePattern } from '../json-column'

interface PhoneNumberRow {
  id: string
  project_id: string
  api_key_id: string
  user_id: string
  number: string
  label: string
  type: 'TELEPHONY'
  provider_account_sid: string
  provider_auth_token: string
  voice_agent_id: string | null
  voice_agent_name: string | null
  created_at: string
  updated_at: string
}

function toView(row: PhoneNumberRow): PhoneNumberView {
  return {
    id: row.id,
    projectId: row.project_id,
    apiKeyId: row.api_key_id,
    userId: row.user_id,
    number: row.number,
    label: row.label,
    type: row.type,
    providerAccountSid: row.provider_account_sid,
    providerAuthToken: row.provider_auth_token,
    voiceAgentId: row.voice_agent_id,
    voiceAgentName: row.voice_agent_name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

const SELECT = `SELECT p.id, p.project_id, p.api_key_id, p.user_id, p.number, p.label, p.type,
  p.provider_account_sid, p.provider_auth_token, p.voice_agent_id, a.agent_name AS voice_agent_name,
  p.created_at, p.updated_at
  FROM phone_numbers p LEFT JOIN voice_agents a ON a.id = p.voice_agent_id`

const FILTER = `p.project_id = @projectId
  AND (@voiceAgentId IS NULL OR p.voice_agent_id = @voiceAgentId)
  AND (@search IS NULL OR p.number LIKE @search ESCAPE '\\' OR p.label LIKE @search ESCAPE '\\')`

export class SqlitePhoneNumbersRepository implements PhoneNumbersRepository {
  private readonly statements: {
    insert: Statement
    findInProject: Statement
    findByNumber: Statement
    findEverywhere: Statement
    setAgent: Statement
    page: Statement
    countAll: Statement
    countFiltered: Statement
    remove: Statement
  }

  constructor(db: Database) {
    this.statements = {
      insert: db.prepare(`INSERT INTO phone_numbers (id, project_id, api_key_id, user_id, number, label, type,
          provider_account_sid, provider_auth_token, voice_agent_id, created_at, updated_at)
        VALUES (@id, @projectId, @apiKeyId, @userId, @number, @label, @type,
          @providerAccountSid, @providerAuthToken, @voiceAgentId, @createdAt, @updatedAt)`),
      findInProject: db.prepare(`${SELECT} WHERE p.id = ? AND p.project_id = ?`),
      findByNumber: db.prepare(`${SELECT} WHERE p.number = ? AND p.project_id = ?`),
      findEverywhere: db.prepare(`${SELECT} WHERE p.number = ? ORDER BY p.created_at, p.id LIMIT 10`),
      setAgent: db.prepare('UPDATE phone_numbers SET voice_agent_id = ?, updated_at = ? WHERE id = ?'),
      page: db.prepare(`${SELECT} WHERE ${FILTER} ORDER BY p.created_at DESC, p.id DESC LIMIT @limit OFFSET @offset`),
      countAll: db.prepare('SELECT COUNT(*) AS count FROM phone_numbers WHERE project_id = ?'),
      countFiltered: db.prepare(`SELECT COUNT(*) AS count FROM phone_numbers p WHERE ${FILTER}`),
      remove: db.prepare('DELETE FROM phone_numbers WHERE id = ? AND project_id = ?'),
    }
  }

  async insert(record: PhoneNumberRecord): Promise<void> {
    this.statements.insert.run(record)
  }

  async findInProject(id: string, projectId: string): Promise<PhoneNumberView | undefined> {
    const row = this.statements.findInProject.get(id, projectId) as PhoneNumberRow | undefined
    return row && toView(row)
  }

  async findByNumber(number: string, projectId: string): Promise<PhoneNumberView | undefined> {
    const row = this.statements.findByNumber.get(number, projectId) as PhoneNumberRow | undefined
    return row && toView(row)
  }

  async findEverywhere(number: string): Promise<PhoneNumberView[]> {
    return (this.statements.findEverywhere.all(number) as PhoneNumberRow[]).map(toView)
  }

  async setAgent(id: string, voiceAgentId: string | null, updatedAt: string): Promise<void> {
    this.statements.setAgent.run(voiceAgentId, updatedAt, id)
  }

  async list(
    projectId: string,
    filter: PhoneNumberFilter,
    limit: number,
    offset: number,
  ): Promise<{ records: PhoneNumberView[]; total: number; filtered: number }> {
    const bound = {
      projectId,
      voiceAgentId: filter.voiceAgentId ?? null,
      search: filter.search ? likePattern(filter.search) : null,
    }
    const total = (this.statements.countAll.get(projectId) as { count: number }).count
    if (filter.search !== undefined && holdsControlCharacter(filter.search)) return { records: [], total, filtered: 0 }
    const rows = this.statements.page.all({ ...bound, limit, offset }) as PhoneNumberRow[]
    const filtered = (this.statements.countFiltered.get(bound) as { count: number }).count
    return { records: rows.map(toView), total, filtered }
  }

  async remove(id: string, projectId: string): Promise<boolean> {
    return this.statements.remove.run(id, projectId).changes === 1
  }
}
