import type { SipUsersRepository } from '../ports'
import type { SipUserRecord } from '../records'
import type { Db } from './db'

const SELECT = 'SELECT name, ha1_md5 AS "ha1Md5", created_at AS "createdAt", updated_at AS "updatedAt" FROM sip_users'

/** The SIP line's users: names and digest HA1s. */
export class PostgresSipUsersRepository implements SipUsersRepository {
  constructor(private readonly db: Db) {}

  async insert(record: SipUserRecord): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO sip_users (name, ha1_md5, created_at, updated_at) VALUES ($1, $2, $3, $4) ON CONFLICT (name) DO NOTHING`,
      [record.name, record.ha1Md5, record.createdAt, record.updatedAt],
    )
    return rowCount === 1
  }

  async get(name: string): Promise<SipUserRecord | undefined> {
    return (await this.db.query<SipUserRecord>(`${SELECT} WHERE name = $1`, [name])).rows[0]
  }

  async list(): Promise<SipUserRecord[]> {
    return (await this.db.query<SipUserRecord>(`${SELECT} ORDER BY name`)).rows
  }

  async count(): Promise<number> {
    return Number((await this.db.query<{ count: string }>('SELECT count(*) AS count FROM sip_users')).rows[0]?.count ?? 0)
  }

  async setPassword(name: string, ha1Md5: string, updatedAt: string): Promise<boolean> {
    const { rowCount } = await this.db.query('UPDATE sip_users SET ha1_md5 = $1, updated_at = $2 WHERE name = $3', [
      ha1Md5,
      updatedAt,
      name,
    ])
    return rowCount === 1
  }

  async remove(name: string): Promise<boolean> {
    return (await this.db.query('DELETE FROM sip_users WHERE name = $1', [name])).rowCount === 1
  }
}
