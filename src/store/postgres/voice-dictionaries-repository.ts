import { holdsControlCharacter } from '../../shared/text/control-characters'
import type { Page, VoiceDictionariesRepository } from '../ports'
import type { DictionaryWord, VoiceDictionaryFilter, VoiceDictionaryRecord, VoiceDictionaryView } from '../records'
import { asciiLike, likeOperand } from './ascii-like'
import type { Db } from './db'

interface DictionaryRow {
  id: string
  projectId: string
  apiKeyId: string
  name: string
  words: string
  createdAt: string
  updatedAt: string
  voiceAgentIds: string[]
}

/** The dictionary's columns with its agents, in activation order. */
const SELECT = `SELECT d.id, d.project_id AS "projectId", d.api_key_id AS "apiKeyId", d.name, d.words, d.created_at AS "createdAt",
  d.updated_at AS "updatedAt", ARRAY(SELECT v.agent_id FROM voice_dictionary_agents v WHERE v.dictionary_id = d.id ORDER BY v.seq)
  AS "voiceAgentIds" FROM voice_dictionaries d`

/** $1 project, $2 LIKE pattern or null, $3 used or null, $4 agent or null. */
const FILTER = `d.project_id = $1
  AND ($2::text IS NULL OR ${asciiLike('d.name', '$2')})
  AND ($3::boolean IS NULL OR EXISTS (SELECT 1 FROM voice_dictionary_agents v WHERE v.dictionary_id = d.id) = $3)
  AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM voice_dictionary_agents v WHERE v.dictionary_id = d.id AND v.agent_id = $4))`

/** Voice dictionaries (ports.ts, VoiceDictionariesRepository). Words are JSON text: the stored bytes are what was written. */
export class PostgresVoiceDictionariesRepository implements VoiceDictionariesRepository {
  constructor(private readonly db: Db) {}

  async insert(record: VoiceDictionaryRecord): Promise<void> {
    const { id, projectId, apiKeyId, name, words, createdAt, updatedAt } = record
    await this.db.query(
      'INSERT INTO voice_dictionaries (id, project_id, api_key_id, name, words, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [id, projectId, apiKeyId, name, JSON.stringify(words), createdAt, updatedAt],
    )
  }

  async update(record: VoiceDictionaryRecord): Promise<boolean> {
    const { id, projectId, name, words, updatedAt } = record
    const { rowCount } = await this.db.query(
      'UPDATE voice_dictionaries SET name = $1, words = $2, updated_at = $3 WHERE id = $4 AND project_id = $5',
      [name, JSON.stringify(words), updatedAt, id, projectId],
    )
    return rowCount === 1
  }

  async findInProject(id: string, projectId: string): Promise<VoiceDictionaryView | undefined> {
    const { rows } = await this.db.query<DictionaryRow>(`${SELECT} WHERE d.id = $1 AND d.project_id = $2`, [id, projectId])
    return rows[0] && toView(rows[0])
  }

  async list(projectId: string, filter: VoiceDictionaryFilter, limit: number, offset: number): Promise<Page<VoiceDictionaryView>> {
    const total =
      (await this.db.query<{ count: number }>('SELECT count(*) AS count FROM voice_dictionaries WHERE project_id = $1', [projectId]))
        .rows[0]?.count ?? 0
    if (filter.search !== undefined && holdsControlCharacter(filter.search)) return { records: [], total, filtered: 0 }
    const bound = [projectId, filter.search ? likeOperand(filter.search) : null, filter.used ?? null, filter.voiceAgentId ?? null]
    const { rows } = await this.db.query<DictionaryRow>(
      `${SELECT} WHERE ${FILTER} ORDER BY d.created_at DESC, d.id DESC LIMIT $5 OFFSET $6`,
      [...bound, limit, offset],
    )
    const filtered =
      (await this.db.query<{ count: number }>(`SELECT count(*) AS count FROM voice_dictionaries d WHERE ${FILTER}`, bound)).rows[0]
        ?.count ?? 0
    return { records: rows.map(toView), total, filtered }
  }

  async remove(id: string, projectId: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM voice_dictionaries WHERE id = $1 AND project_id = $2', [id, projectId])).rowCount === 1
  }

  async setActive(id: string, voiceAgentId: string, projectId: string, active: boolean, at: string): Promise<boolean> {
    const { rowCount } = active
      ? await this.db.query(
          `INSERT INTO voice_dictionary_agents (dictionary_id, agent_id, project_id, activated_at) VALUES ($1, $2, $3, $4)
           ON CONFLICT (dictionary_id, agent_id) DO NOTHING`,
          [id, voiceAgentId, projectId, at],
        )
      : await this.db.query('DELETE FROM voice_dictionary_agents WHERE dictionary_id = $1 AND agent_id = $2 AND project_id = $3', [
          id,
          voiceAgentId,
          projectId,
        ])
    return rowCount === 1
  }

  async findActiveForAgent(voiceAgentId: string, projectId: string): Promise<VoiceDictionaryView[]> {
    const { rows } = await this.db.query<DictionaryRow>(
      `${SELECT} JOIN voice_dictionary_agents a ON a.dictionary_id = d.id WHERE a.agent_id = $1 AND a.project_id = $2 ORDER BY a.seq`,
      [voiceAgentId, projectId],
    )
    return rows.map(toView)
  }
}

function toView(row: DictionaryRow): VoiceDictionaryView {
  return { ...row, words: JSON.parse(row.words) as DictionaryWord[] }
}
