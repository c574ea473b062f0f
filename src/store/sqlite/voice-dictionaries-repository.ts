import type { Database, Statement } from 'better-sqlite3'
import { holdsControlCharacter } from '../../shared/text/control-characters'
import { likePattern } from '../json-column'
import type { Page, VoiceDictionariesRepository } from '../ports'
import type { DictionaryWord, VoiceDictionaryFilter, VoiceDictionaryRecord, VoiceDictionaryView } from '../records'

interface DictionaryRow {
  id: string
  project_id: string
  api_key_id: string
  name: string
  words: string
  created_at: string
  updated_at: string
  agent_ids: string | null
}

/** The dictionary's columns with its agents, in activation order, as one text (ids hold no comma). */
const SELECT = `SELECT d.*, (SELECT group_concat(agent_id, ',') FROM (SELECT agent_id FROM voice_dictionary_agents
  WHERE dictionary_id = d.id ORDER BY seq)) AS agent_ids FROM voice_dictionaries d`

const FILTER = `d.project_id = @projectId
  AND (@search IS NULL OR d.name LIKE @search ESCAPE '\\')
  AND (@used IS NULL OR EXISTS (SELECT 1 FROM voice_dictionary_agents v WHERE v.dictionary_id = d.id) = @used)
  AND (@voiceAgentId IS NULL OR EXISTS (SELECT 1 FROM voice_dictionary_agents v WHERE v.dictionary_id = d.id AND v.agent_id = @voiceAgentId))`

/** Voice dictionaries (ports.ts, VoiceDictionariesRepository). Words are JSON text. */
export class SqliteVoiceDictionariesRepository implements VoiceDictionariesRepository {
  private readonly statements: Record<
    'insert' | 'update' | 'find' | 'countAll' | 'countFiltered' | 'page' | 'remove' | 'activate' | 'deactivate' | 'forAgent',
    Statement
  >

  constructor(db: Database) {
    this.statements = {
      insert: db.prepare(
        'INSERT INTO voice_dictionaries (id, project_id, api_key_id, name, words, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      update: db.prepare('UPDATE voice_dictionaries SET name = ?, words = ?, updated_at = ? WHERE id = ? AND project_id = ?'),
      find: db.prepare(`${SELECT} WHERE d.id = ? AND d.project_id = ?`),
      countAll: db.prepare('SELECT count(*) AS count FROM voice_dictionaries WHERE project_id = ?'),
      countFiltered: db.prepare(`SELECT count(*) AS count FROM voice_dictionaries d WHERE ${FILTER}`),
      page: db.prepare(`${SELECT} WHERE ${FILTER} ORDER BY d.created_at DESC, d.id DESC LIMIT @limit OFFSET @offset`),
      remove: db.prepare('DELETE FROM voice_dictionaries WHERE id = ? AND project_id = ?'),
      activate: db.prepare(
        `INSERT INTO voice_dictionary_agents (dictionary_id, agent_id, project_id, activated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (dictionary_id, agent_id) DO NOTHING`,
      ),
      deactivate: db.prepare('DELETE FROM voice_dictionary_agents WHERE dictionary_id = ? AND agent_id = ? AND project_id = ?'),
      forAgent: db.prepare(
        `${SELECT} JOIN voice_dictionary_agents a ON a.dictionary_id = d.id WHERE a.agent_id = ? AND a.project_id = ? ORDER BY a.seq`,
      ),
    }
  }

  async insert(record: VoiceDictionaryRecord): Promise<void> {
    const { id, projectId, apiKeyId, name, words, createdAt, updatedAt } = record
    this.statements.insert.run(id, projectId, apiKeyId, name, JSON.stringify(words), createdAt, updatedAt)
  }

  async update(record: VoiceDictionaryRecord): Promise<boolean> {
    const { id, projectId, name, words, updatedAt } = record
    return this.statements.update.run(name, JSON.stringify(words), updatedAt, id, projectId).changes === 1
  }

  async findInProject(id: string, projectId: string): Promise<VoiceDictionaryView | undefined> {
    const row = this.statements.find.get(id, projectId) as DictionaryRow | undefined
    return row && toView(row)
  }

  async list(projectId: string, filter: VoiceDictionaryFilter, limit: number, offset: number): Promise<Page<VoiceDictionaryView>> {
    const total = (this.statements.countAll.get(projectId) as { count: number }).count
    if (filter.search !== undefined && holdsControlCharacter(filter.search)) return { records: [], total, filtered: 0 }
    const bound = {
      projectId,
      search: filter.search ? likePattern(filter.search) : null,
      used: filter.used === undefined ? null : filter.used ? 1 : 0,
      voiceAgentId: filter.voiceAgentId ?? null,
    }
    const rows = this.statements.page.all({ ...bound, limit, offset }) as DictionaryRow[]
    const filtered = (this.statements.countFiltered.get(bound) as { count: number }).count
    return { records: rows.map(toView), total, filtered }
  }

  async remove(id: string, projectId: string): Promise<boolean> {
    return this.statements.remove.run(id, projectId).changes === 1
  }

  async setActive(id: string, voiceAgentId: string, projectId: string, active: boolean, at: string): Promise<boolean> {
    const result = active
      ? this.statements.activate.run(id, voiceAgentId, projectId, at)
      : this.statements.deactivate.run(id, voiceAgentId, projectId)
    return result.changes === 1
  }

  async findActiveForAgent(voiceAgentId: string, projectId: string): Promise<VoiceDictionaryView[]> {
    return (this.statements.forAgent.all(voiceAgentId, projectId) as DictionaryRow[]).map(toView)
  }
}

function toView(row: DictionaryRow): VoiceDictionaryView {
  return {
    id: row.id,
    projectId: row.project_id,
    apiKeyId: row.api_key_id,
    name: row.name,
    words: JSON.parse(row.words) as DictionaryWord[],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    voiceAgentIds: row.agent_ids ? row.agent_ids.split(',') : [],
  }
}
