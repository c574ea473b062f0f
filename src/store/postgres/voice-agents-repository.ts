import { z } from 'zod'
import { holdsControlCharacter } from '../../shared/text/control-characters'
import { readJsonColumn } from '../json-column'
import type { Page, VoiceAgentsRepository } from '../ports'
import type { VoiceAgentFilter, VoiceAgentRecord, VoiceAgentVersionRecord } from '../records'
import { asciiLike, likeOperand } from './ascii-like'
import type { Db } from './db'

interface VoiceAgentRow {
  id: string
  project_id: string
  api_key_id: string
  agent_name: string
  description: string
  greeting_message: string
  preamble: string
  lang: 'ar' | 'en'
  poke_messages: string
  real_time: boolean
  silence_threshold: number
  end_of_turn_silence_ms: number
  max_caller_turn_seconds: number
  interrupt: boolean
  outcome: string
  outcome_response_shape: string | null
  voice_id: string
  tools: string
  params: string
  webhook_url: string | null
  webhook_auth_key: string | null
  webhook_auth_secret: string | null
  source_id: string | null
  created_at: string
  updated_at: string
}

interface VoiceAgentVersionRow extends VoiceAgentRow {
  version: number
  source: string
  versioned_at: string
}

const StringListSchema = z.array(z.string())
const ShapeColumnSchema = z.record(z.string(), z.unknown())
const ToolsColumnSchema = z.object({ genderDetection: z.boolean().optional(), smartCallEnd: z.boolean().optional() })
const ParamsColumnSchema = z.record(z.string(), z.string())

function toRecord(row: VoiceAgentRow): VoiceAgentRecord {
  return {
    id: row.id,
    projectId: row.project_id,
    apiKeyId: row.api_key_id,
    agentName: row.agent_name,
    description: row.description,
    greetingMessage: row.greeting_message,
    preamble: row.preamble,
    lang: row.lang,
    pokeMessages: readJsonColumn(StringListSchema, row.poke_messages, 'poke_messages'),
    realTime: row.real_time,
    silenceThreshold: row.silence_threshold,
    endOfTurnSilenceMs: row.end_of_turn_silence_ms,
    maxCallerTurnSeconds: row.max_caller_turn_seconds,
    interrupt: row.interrupt,
    outcome: row.outcome,
    outcomeResponseShape:
      row.outcome_response_shape === null ? null : readJsonColumn(ShapeColumnSchema, row.outcome_response_shape, 'outcome_response_shape'),
    voiceId: row.voice_id,
    tools: readJsonColumn(ToolsColumnSchema, row.tools, 'tools'),
    params: readJsonColumn(ParamsColumnSchema, row.params, 'params'),
    webhookUrl: row.webhook_url,
    webhookAuthKey: row.webhook_auth_key,
    webhookAuthSecret: row.webhook_auth_secret,
    sourceId: row.source_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** The columns in order, and each one's value from a record. */
const COLUMNS: [keyof VoiceAgentRow, (record: VoiceAgentRecord) => unknown][] = [
  ['id', (r) => r.id],
  ['project_id', (r) => r.projectId],
  ['api_key_id', (r) => r.apiKeyId],
  ['agent_name', (r) => r.agentName],
  ['description', (r) => r.description],
  ['greeting_message', (r) => r.greetingMessage],
  ['preamble', (r) => r.preamble],
  ['lang', (r) => r.lang],
  ['poke_messages', (r) => JSON.stringify(r.pokeMessages)],
  ['real_time', (r) => r.realTime],
  ['silence_threshold', (r) => r.silenceThreshold],
  ['end_of_turn_silence_ms', (r) => r.endOfTurnSilenceMs],
  ['max_caller_turn_seconds', (r) => r.maxCallerTurnSeconds],
  ['interrupt', (r) => r.interrupt],
  ['outcome', (r) => r.outcome],
  ['outcome_response_shape', (r) => (r.outcomeResponseShape === null ? null : JSON.stringify(r.outcomeResponseShape))],
  ['voice_id', (r) => r.voiceId],
  ['tools', (r) => JSON.stringify(r.tools)],
  ['params', (r) => JSON.stringify(r.params)],
  ['webhook_url', (r) => r.webhookUrl],
  ['webhook_auth_key', (r) => r.webhookAuthKey],
  ['webhook_auth_secret', (r) => r.webhookAuthSecret],
  ['source_id', (r) => r.sourceId],
  ['created_at', (r) => r.createdAt],
  ['updated_at', (r) => r.updatedAt],
]
const COLUMN_LIST = COLUMNS.map(([column]) => column).join(', ')
const values = (record: VoiceAgentRecord) => COLUMNS.map(([, value]) => value(record))
/** Every editable column ($3 on; $1 and $2 are id and project): identity and creation stay. */
const EDITABLE = COLUMNS.filter(([column]) => !['id', 'project_id', 'api_key_id', 'created_at'].includes(column))
const ASSIGNMENTS = EDITABLE.map(([column], index) => `${column} = $${index + 3}`).join(', ')

/** A version row holds the agent's columns, its number, what made it and when. */
const VERSION_COLUMN_LIST = `version, source, versioned_at, ${COLUMN_LIST}`

function toVersionRecord(row: VoiceAgentVersionRow): VoiceAgentVersionRecord {
  return { ...toRecord(row), version: row.version, source: row.source, versionedAt: row.versioned_at }
}

/** $1 project, $2 lang or null, $3 LIKE pattern or null, $4 the search itself (an exact id). */
const FILTER = `project_id = $1 AND ($2::text IS NULL OR lang = $2)
  AND ($3::text IS NULL OR ${asciiLike('agent_name', '$3')} OR ${asciiLike('description', '$3')} OR id = $4)`

export class PostgresVoiceAgentsRepository implements VoiceAgentsRepository {
  constructor(private readonly db: Db) {}

  async insert(record: VoiceAgentRecord): Promise<void> {
    await this.db.query(
      `INSERT INTO voice_agents (${COLUMN_LIST}) VALUES (${COLUMNS.map((_, index) => `$${index + 1}`).join(', ')})`,
      values(record),
    )
  }

  /** Writes every editable column of an existing agent; identity and creation stay. */
  async replace(record: VoiceAgentRecord): Promise<void> {
    await this.db.query(`UPDATE voice_agents SET ${ASSIGNMENTS} WHERE id = $1 AND project_id = $2`, [
      record.id,
      record.projectId,
      ...EDITABLE.map(([, value]) => value(record)),
    ])
  }

  async findInProject(id: string, projectId: string): Promise<VoiceAgentRecord | undefined> {
    const { rows } = await this.db.query<VoiceAgentRow>(`SELECT ${COLUMN_LIST} FROM voice_agents WHERE id = $1 AND project_id = $2`, [
      id,
      projectId,
    ])
    return rows[0] && toRecord(rows[0])
  }

  async findForChange(id: string, projectId: string): Promise<VoiceAgentRecord | undefined> {
    const { rows } = await this.db.query<VoiceAgentRow>(
      `SELECT ${COLUMN_LIST} FROM voice_agents WHERE id = $1 AND project_id = $2 FOR UPDATE`,
      [id, projectId],
    )
    return rows[0] && toRecord(rows[0])
  }

  /** Newest first; ties broken by id so pages never overlap. */
  async list(projectId: string, filter: VoiceAgentFilter, limit: number, offset: number): Promise<Page<VoiceAgentRecord>> {
    const total =
      (await this.db.query<{ count: number }>('SELECT count(*) AS count FROM voice_agents WHERE project_id = $1', [projectId])).rows[0]
        ?.count ?? 0
    if (filter.search !== undefined && holdsControlCharacter(filter.search)) return { records: [], total, filtered: 0 }
    const bound = [projectId, filter.lang ?? null, filter.search ? likeOperand(filter.search) : null, filter.search ?? null]
    const { rows } = await this.db.query<VoiceAgentRow>(
      `SELECT ${COLUMN_LIST} FROM voice_agents WHERE ${FILTER} ORDER BY created_at DESC, id DESC LIMIT $5 OFFSET $6`,
      [...bound, limit, offset],
    )
    const filtered =
      (await this.db.query<{ count: number }>(`SELECT count(*) AS count FROM voice_agents WHERE ${FILTER}`, bound)).rows[0]?.count ?? 0
    return { records: rows.map(toRecord), total, filtered }
  }

  async remove(id: string, projectId: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM voice_agents WHERE id = $1 AND project_id = $2', [id, projectId])).rowCount === 1
  }

  /**
   * The next number is read in the statement that writes it. The caller's transaction has
   * written the agent's row first (insert or update), so a second change of the same agent
   * waits for that row's lock until the first commits, and its statement (a fresh snapshot
   * under READ COMMITTED) then sees the first's version. The primary key refuses a duplicate all the same.
   */
  async addVersion(record: VoiceAgentRecord, source: string, versionedAt: string): Promise<number> {
    const base = values(record)
    const { rows } = await this.db.query<{ version: number }>(
      `INSERT INTO voice_agent_versions (${VERSION_COLUMN_LIST})
       SELECT coalesce(max(version), 0) + 1, $${base.length + 1}, $${base.length + 2}, ${COLUMNS.map((_, index) => `$${index + 1}`).join(', ')}
       FROM voice_agent_versions WHERE id = $1
       RETURNING version`,
      [...base, source, versionedAt],
    )
    return Number(rows[0]?.version)
  }

  async listVersions(id: string, projectId: string, limit: number, offset: number): Promise<Page<VoiceAgentVersionRecord>> {
    const count = Number(
      (
        await this.db.query<{ count: number }>('SELECT count(*) AS count FROM voice_agent_versions WHERE id = $1 AND project_id = $2', [
          id,
          projectId,
        ])
      ).rows[0]?.count ?? 0,
    )
    const { rows } = await this.db.query<VoiceAgentVersionRow>(
      `SELECT ${VERSION_COLUMN_LIST} FROM voice_agent_versions WHERE id = $1 AND project_id = $2 ORDER BY version DESC LIMIT $3 OFFSET $4`,
      [id, projectId, limit, offset],
    )
    return { records: rows.map(toVersionRecord), total: count, filtered: count }
  }

  async findVersion(id: string, projectId: string, version: number): Promise<VoiceAgentVersionRecord | undefined> {
    const { rows } = await this.db.query<VoiceAgentVersionRow>(
      `SELECT ${VERSION_COLUMN_LIST} FROM voice_agent_versions WHERE id = $1 AND project_id = $2 AND version = $3`,
      [id, projectId, version],
    )
    return rows[0] && toVersionRecord(rows[0])
  }

  async latestVersion(id: string, projectId: string): Promise<number | undefined> {
    const { rows } = await this.db.query<{ latest: number | null }>(
      'SELECT max(version) AS latest FROM voice_agent_versions WHERE id = $1 AND project_id = $2',
      [id, projectId],
    )
    return rows[0]?.latest ?? undefined
  }
}
