import type pg from 'pg'
import type { ProjectDataRepository, ReplaceProjectOptions } from '../ports'
import type { ProjectCounts, ProjectRow } from '../records'

/** A project's data out of and into PostgreSQL (see ProjectDataRepository). */
export class PostgresProjectDataRepository implements ProjectDataRepository {
  constructor(private readonly pool: pg.Pool) {}

  // eslint-disable-next-line require-yield
  async *exportProject(projectId: string): AsyncIterable<ProjectRow> {
    throw new Error(`exportProject(${projectId}) is not built yet`)
  }

  async replaceProject(projectId: string, _rows: AsyncIterable<ProjectRow> | Iterable<ProjectRow>, _options?: ReplaceProjectOptions): Promise<{ counts: ProjectCounts }> {
    throw new Error(`replaceProject(${projectId}) is not built yet`)
  }

  async projectCounts(projectId: string): Promise<ProjectCounts> {
    const { rows } = await this.pool.query<ProjectCounts>(
      `SELECT (SELECT count(*) FROM voice_agents WHERE project_id = $1) AS "agents",
              (SELECT count(*) FROM phone_numbers WHERE project_id = $1) AS "phoneNumbers",
              (SELECT count(*) FROM jobs WHERE project_id = $1) AS "jobs",
              (SELECT count(*) FROM webhook_deliveries WHERE project_id = $1) AS "deliveries",
              (SELECT count(*) FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.project_id = $1) AS "attempts"`,
      [projectId],
    )
    return rows[0]!
  }
}
