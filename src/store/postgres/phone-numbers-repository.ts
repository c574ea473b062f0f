import { holdsControlCharacter } from '../../shared/text/control-characters'
import type { Page, PhoneNumbersRepository } from '../ports'
import type { PhoneNumberFilter, PhoneNumberRecord, PhoneNumberView } from '../records'
import { asciiLike, likeOperand } from './ascii-like'
import type { Db } from './db'

const SELECT = `SELECT p.id, p.project_id AS "projectId", p.api_key_id AS "apiKeyId", p.user_id AS "userId", p.number, p.label, p.type,
  p.provider_account_sid AS "providerAccountSid", p.provider_auth_token AS "providerAuthToken", p.voice_agent_id AS "voiceAgentId",
  a.agent_name AS "voiceAgentName", p.created_at AS "createdAt", p.updated_at AS "updatedAt"
  FROM phone_numbers p LEFT JOIN voice_agents a ON a.id = p.voice_agent_id`

/** $1 project, $2 agent or null, $3 LIKE pattern or null. */
const FILTER = `p.project_id = $1 AND ($2::text IS NULL OR p.voice_agent_id = $2)
  AND ($3::text IS NULL OR ${asciiLike('p.number', '$3')} OR ${asciiLike('p.label', '$3')})`

export class PostgresPhoneNumbersRepository implements PhoneNumbersRepository {
  constructor(private readonly db: Db) {}

  async insert(record: PhoneNumberRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO phone_numbers (id, project_id, api_key_id, user_id, number, label, type, provider_account_sid, provider_auth_token,
        voice_agent_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
      [
        record.id,
        record.projectId,
        record.apiKeyId,
        record.userId,
        record.number,
        record.label,
        record.type,
        record.providerAccountSid,
        record.providerAuthToken,
        record.voiceAgentId,
        record.createdAt,
        record.updatedAt,
      ],
    )
  }

  async findInProject(id: string, projectId: string): Promise<PhoneNumberView | undefined> {
    return (await this.db.query<PhoneNumberView>(`${SELECT} WHERE p.id = $1 AND p.project_id = $2`, [id, projectId])).rows[0]
  }

  async findByNumber(number: string, projectId: string): Promise<PhoneNumberView | undefined> {
    return (await this.db.query<PhoneNumberView>(`${SELECT} WHERE p.number = $1 AND p.project_id = $2`, [number, projectId])).rows[0]
  }

  async findEverywhere(number: string): Promise<PhoneNumberView[]> {
    return (await this.db.query<PhoneNumberView>(`${SELECT} WHERE p.number = $1 ORDER BY p.created_at, p.id LIMIT 10`, [number])).rows
  }

  async setAgent(id: string, voiceAgentId: string | null, updatedAt: string): Promise<void> {
    await this.db.query('UPDATE phone_numbers SET voice_agent_id = $1, updated_at = $2 WHERE id = $3', [voiceAgentId, updatedAt, id])
  }

  async list(projectId: string, filter: PhoneNumberFilter, limit: number, offset: number): Promise<Page<PhoneNumberView>> {
    const total =
      (await this.db.query<{ count: number }>('SELECT count(*) AS count FROM phone_numbers WHERE project_id = $1', [projectId])).rows[0]
        ?.count ?? 0
    if (filter.search !== undefined && holdsControlCharacter(filter.search)) return { records: [], total, filtered: 0 }
    const bound = [projectId, filter.voiceAgentId ?? null, filter.search ? likeOperand(filter.search) : null]
    const { rows } = await this.db.query<PhoneNumberView>(
      `${SELECT} WHERE ${FILTER} ORDER BY p.created_at DESC, p.id DESC LIMIT $4 OFFSET $5`,
      [...bound, limit, offset],
    )
    const filtered =
      (await this.db.query<{ count: number }>(`SELECT count(*) AS count FROM phone_numbers p WHERE ${FILTER}`, bound)).rows[0]?.count ?? 0
    return { records: rows, total, filtered }
  }

  async remove(id: string, projectId: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM phone_numbers WHERE id = $1 AND project_id = $2', [id, projectId])).rowCount === 1
  }
}
