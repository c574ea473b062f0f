import type { Database } from 'better-sqlite3'
import type { ProjectDataRepository, ReplaceProjectOptions } from '../ports'
import type { ProjectCounts, ProjectRow } from '../records'

/** A project's data out of and into SQLite (see ProjectDataRepository). */
export class SqliteProjectDataRepository implements ProjectDataRepository {
  constructor(private readonly db: Database) {}

  // eslint-disable-next-line require-yield
  async *exportProject(projectId: string): AsyncIterable<ProjectRow> {
    throw new Error(`exportProject(${projectId}) is not built yet`)
  }

  async replaceProject(projectId: string, _rows: AsyncIterable<ProjectRow> | Iterable<ProjectRow>, _options?: ReplaceProjectOptions): Promise<{ counts: ProjectCounts }> {
    throw new Error(`replaceProject(${projectId}) is not built yet`)
  }

  async projectCounts(projectId: string): Promise<ProjectCounts> {
    const count = (sql: string) => this.db.prepare(sql).pluck().get(projectId) as number
    return {
      agents: count('SELECT count(*) FROM voice_agents WHERE project_id = ?'),
      phoneNumbers: count('SELECT count(*) FROM phone_numbers WHERE project_id = ?'),
      jobs: count('SELECT count(*) FROM jobs WHERE project_id = ?'),
      deliveries: count('SELECT count(*) FROM webhook_deliveries WHERE project_id = ?'),
      attempts: count('SELECT count(*) FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.project_id = ?'),
    }
  }
}
