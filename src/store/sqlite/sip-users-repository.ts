import type { Database, Statement } from 'better-sqlite3'
import type { SipUsersRepository } from '../ports'
import type { SipUserRecord } from '../records'

const SELECT = 'SELECT name, ha1_md5 AS ha1Md5, created_at AS createdAt, updated_at AS updatedAt FROM sip_users'

/** The SIP line's users: names and digest HA1s. */
export class SqliteSipUsersRepository implements SipUsersRepository {
  private readonly statements: Record<'insert' | 'get' | 'list' | 'count' | 'setPassword' | 'remove', Statement>

  constructor(db: Database) {
    this.statements = {
      insert: db.prepare(`INSERT INTO sip_users (name, ha1_md5, created_at, updated_at) VALUES (@name, @ha1Md5, @createdAt, @updatedAt)
        ON CONFLICT (name) DO NOTHING`),
      get: db.prepare(`${SELECT} WHERE name = ?`),
      list: db.prepare(`${SELECT} ORDER BY name`),
      count: db.prepare('SELECT count(*) FROM sip_users').pluck(),
      setPassword: db.prepare('UPDATE sip_users SET ha1_md5 = ?, updated_at = ? WHERE name = ?'),
      remove: db.prepare('DELETE FROM sip_users WHERE name = ?'),
    }
  }

  async insert(record: SipUserRecord): Promise<boolean> {
    return this.statements.insert.run(record).changes === 1
  }

  async get(name: string): Promise<SipUserRecord | undefined> {
    return this.statements.get.get(name) as SipUserRecord | undefined
  }

  async list(): Promise<SipUserRecord[]> {
    return this.statements.list.all() as SipUserRecord[]
  }

  async count(): Promise<number> {
    return this.statements.count.get() as number
  }

  async setPassword(name: string, ha1Md5: string, updatedAt: string): Promise<boolean> {
    return this.statements.setPassword.run(ha1Md5, updatedAt, name).changes === 1
  }

  async remove(name: string): Promise<boolean> {
    return this.statements.remove.run(name).changes === 1
  }
}
