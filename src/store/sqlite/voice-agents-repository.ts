import type { Database, Statement } from 'better-sqlite3'
import type { Page, VoiceAgentsRepository } from '../ports'
import type { VoiceAgentRecord, VoiceAgentFilter, VoiceAgentVersionRecord } from '../records'
import { z } from 'zod'
import { holdsControlCharacter } from '../../shared/text/control-characters'
import { likePattern, readJsonColumn } from '../json-column'

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
  real_time: number
  silence_threshold: number
  end_of_turn_silence_ms: number
  max_caller_turn_seconds: number
  interrupt: number
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
    realTime: row.real_time === 1,
    silenceThreshold: row.silence_threshold,
    endOfTurnSilenceMs: row.end_of_turn_silence_ms,
    maxCallerTurnSeconds: row.max_caller_turn_seconds,
    interrupt: row.interrupt === 1,
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

function toRow(record: VoiceAgentRecord): VoiceAgentRow {
  return {
    id: record.id,
    project_id: record.projectId,
    api_key_id: record.apiKeyId,
    agent_name: record.agentName,
    description: record.description,
    greeting_message: record.greetingMessage,
    preamble: record.preamble,
    lang: record.lang,
    poke_messages: JSON.stringify(record.pokeMessages),
    real_time: record.realTime ? 1 : 0,
    silence_threshold: record.silenceThreshold,
    end_of_turn_silence_ms: record.endOfTurnSilenceMs,
    max_caller_turn_seconds: record.maxCallerTurnSeconds,
    interrupt: record.interrupt ? 1 : 0,
    outcome: record.outcome,
    outcome_response_shape: record.outcomeResponseShape === null ? null : JSON.stringify(record.outcomeResponseShape),
    voice_id: record.voiceId,
    tools: JSON.stringify(record.tools),
    params: JSON.stringify(record.params),
    webhook_url: record.webhookUrl,
    webhook_auth_key: record.webhookAuthKey,
    webhook_auth_secret: record.webhookAuthSecret,
    source_id: record.sourceId,
    created_at: record.createdAt,
    updated_at: record.updatedAt,
  }
}

const COLUMNS = `id, project_id, api_key_id, agent_name, description, greeting_message, preamble, lang,
  poke_messages, real_time, silence_threshold, end_of_turn_silence_ms, max_caller_turn_seconds, interrupt, outcome, outcome_response_shape, voice_id,
  tools, params, webhook_url, webhook_auth_key, webhook_auth_secret, source_id, created_at, updated_at`

/** A version row holds the agent's columns, its number, what made it and when. */
const VERSION_COLUMNS = `version, source, versioned_at, ${COLUMNS}`

function toVersionRecord(row: VoiceAgentVersionRow): VoiceAgentVersionRecord {
  return { ...toRecord(row), version: row.version, source: row.source, versionedAt: row.versioned_at }
}

const FILTER = `project_id = @projectId
  AND (@lang IS NULL OR lang = @lang)
  AND (@search IS NULL OR agent_name LIKE @search ESCAPE '\\' OR description LIKE @search ESCAPE '\\' OR id = @exact)`

export class SqliteVoiceAgentsRepository implements VoiceAgentsRepository {
  private readonly statements: {
    insert: Statement
    replace: Statement
    findInProject: Statement
    page: Statement
    countAll: Statement
    countFiltered: Statement
    remove: Statement
    addVersion: Statement
    versionsPage: Statement
    countVersions: Statement
    findVersion: Statement
    latestVersion: Statement
  }

  constructor(db: Database) {
    const values = COLUMNS.split(',')
      .map((column) => `@${column.trim()}`)
      .join(', ')
    const assignments = COLUMNS.split(',')
      .map((column) => column.trim())
      .filter((column) => !['id', 'project_id', 'api_key_id', 'created_at'].includes(column))
      .map((column) => `${column} = @${column}`)
      .join(', ')
    this.statements = {
      insert: db.prepare(`INSERT INTO voice_agents (${COLUMNS}) VALUES (${values})`),
      replace: db.prepare(`UPDATE voice_agents SET ${assignments} WHERE id = @id AND project_id = @project_id`),
      findInProject: db.prepare(`SELECT ${COLUMNS} FROM voice_agents WHERE id = ? AND project_id = ?`),
      page: db.prepare(`SELECT ${COLUMNS} FROM voice_agents WHERE ${FILTER}
        ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`),
      countAll: db.prepare('SELECT COUNT(*) AS count FROM voice_agents WHERE project_id = ?'),
      countFiltered: db.prepare(`SELECT COUNT(*) AS count FROM voice_agents WHERE ${FILTER}`),
      remove: db.prepare('DELETE FROM voice_agents WHERE id = ? AND project_id = ?'),
      // The next number is read in the statement that writes it, inside the caller's IMMEDIATE transaction.
      addVersion: db
        .prepare(
          `INSERT INTO voice_agent_versions (${VERSION_COLUMNS})
           SELECT coalesce(max(version), 0) + 1, @source, @versioned_at, ${values} FROM voice_agent_versions WHERE id = @id
           RETURNING version`,
        )
        .pluck(),
      versionsPage: db.prepare(
        `SELECT ${VERSION_COLUMNS} FROM voice_agent_versions WHERE id = ? AND project_id = ? ORDER BY version DESC LIMIT ? OFFSET ?`,
      ),
      countVersions: db.prepare('SELECT count(*) FROM voice_agent_versions WHERE id = ? AND project_id = ?').pluck(),
      findVersion: db.prepare(`SELECT ${VERSION_COLUMNS} FROM voice_agent_versions WHERE id = ? AND project_id = ? AND version = ?`),
      latestVersion: db.prepare('SELECT max(version) FROM voice_agent_versions WHERE id = ? AND project_id = ?').pluck(),
    }
  }

  async insert(record: VoiceAgentRecord): Promise<void> {
    this.statements.insert.run(toRow(record))
  }

  /** Writes every editable column of an existing agent; identity and creation stay. */
  async replace(record: VoiceAgentRecord): Promise<void> {
    this.statements.replace.run(toRow(record))
  }

  async findInProject(id: string, projectId: string): Promise<VoiceAgentRecord | undefined> {
    const row = this.statements.findInProject.get(id, projectId) as VoiceAgentRow | undefined
    return row && toRecord(row)
  }

  /** The transaction is IMMEDIATE: it holds the write lock from its start. */
  findForChange(id: string, projectId: string): Promise<VoiceAgentRecord | undefined> {
    return this.findInProject(id, projectId)
  }

  /** Newest first; ties broken by id so pages never overlap. */
  async list(
    projectId: string,
    filter: VoiceAgentFilter,
    limit: number,
    offset: number,
  ): Promise<{ records: VoiceAgentRecord[]; total: number; filtered: number }> {
    const bound = {
      projectId,
      lang: filter.lang ?? null,
      search: filter.search ? likePattern(filter.search) : null,
      exact: filter.search ?? null,
    }
    const total = (this.statements.countAll.get(projectId) as { count: number }).count
    if (filter.search !== undefined && holdsControlCharacter(filter.search)) return { records: [], total, filtered: 0 }
    const rows = this.statements.page.all({ ...bound, limit, offset }) as VoiceAgentRow[]
    const filtered = (this.statements.countFiltered.get(bound) as { count: number }).count
    return { records: rows.map(toRecord), total, filtered }
  }

  async remove(id: string, projectId: string): Promise<boolean> {
    return this.statements.remove.run(id, projectId).changes === 1
  }

  async addVersion(record: VoiceAgentRecord, source: string, versionedAt: string): Promise<number> {
    return this.statements.addVersion.get({ ...toRow(record), source, versioned_at: versionedAt }) as number
  }

  async listVersions(id: string, projectId: string, limit: number, offset: number): Promise<Page<VoiceAgentVersionRecord>> {
    const count = this.statements.countVersions.get(id, projectId) as number
    const rows = this.statements.versionsPage.all(id, projectId, limit, offset) as VoiceAgentVersionRow[]
    return { records: rows.map(toVersionRecord), total: count, filtered: count }
  }

  async findVersion(id: string, projectId: string, version: number): Promise<VoiceAgentVersionRecord | undefined> {
    const row = this.statements.findVersion.get(id, projectId, version) as VoiceAgentVersionRow | undefined
    return row && toVersionRecord(row)
  }

  async latestVersion(id: string, projectId: string): Promise<number | undefined> {
    return (this.statements.latestVersion.get(id, projectId) as number | null) ?? undefined
  }
}
