import { afterEach, describe, expect, it } from 'vitest'
import { startWebhookReceiver } from '../helpers/webhook-receiver'
import { everyGet, exportState, importState, seedProject, startLiveService, startLiveSqliteService } from '../helpers/project-state-fixture'

/*
 * An archive is engine-neutral: exported from a SQLite data folder, imported into a team's
 * PostgreSQL database (another service, another sealing key), every /v1 GET answers the same.
 * Webhooks go to a loopback receiver standing for the client's server.
 */

const stops: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop()
})

describe('an archive from SQLite, imported into PostgreSQL', () => {
  it('answers every GET as the SQLite service did, secrets opened with the passphrase', { timeout: 90_000 }, async () => {
    const receiver = await startWebhookReceiver()
    const sqlite = await startLiveSqliteService()
    stops.push(sqlite.stop)
    expect(sqlite.runtime.store.engine).toBe('sqlite')
    await seedProject(sqlite, receiver)
    const before = await everyGet(sqlite)
    const sealed = await exportState(sqlite, 'a team passphrase')
    const unsealed = await exportState(sqlite)

    const team = await startLiveService()
    expect(team.runtime.store.engine).toBe('postgres')
    // Without the passphrase, its secrets (sealed with the folder's own key) cannot be opened here: refused, nothing written.
    const refused = await importState(team, unsealed)
    expect(refused.status).toBe(400)
    expect(((await refused.json()) as { message: string }).message).toMatch(/another service's key/)

    const imported = await importState(team, sealed, 'a team passphrase')
    expect(imported.status, await imported.clone().text()).toBe(200)
    const after = await everyGet(team)
    const identity = async (service: Pick<typeof sqlite, 'http' | 'runtime'>) => {
      const project = ((await (await service.http('GET', '/v1/projects/by-api-key')).json()) as { data: { id: string } }).data.id
      const key = service.runtime.appCaller
      const fixed = (
        (await (await service.http('GET', '/v1/voice-agents?take=100')).json()) as { data: { agents: { apiKeyId: string }[] } }
      ).data.agents[0]!.apiKeyId
      return new Map([
        [project, '<project>'],
        [fixed, '<key>'],
        [key.userId, '<user>'],
      ])
    }
    const [sqliteIds, teamIds] = [await identity(sqlite), await identity(team)]
    expect([...after.keys()].length).toBe(before.size)
    // Another service: its project id, key id, user id and address differ (a delivery's payload keeps the
    // ones it was sent with, as sent); every other byte is the same.
    const sameService = (answer: string) => {
      let text = answer.replaceAll(sqlite.baseUrl, '<base>').replaceAll(team.baseUrl, '<base>')
      for (const [id, name] of [...sqliteIds, ...teamIds]) text = text.replaceAll(id, name)
      return text
    }
    for (const [request, answer] of before) {
      // The project itself (its name and creation time) is the service's, not the archive's.
      if (request.includes('/projects/by-api-key')) continue
      const teamRequest = [...after.keys()].find((key) => sameService(key) === sameService(request))
      expect(teamRequest, request).toBeDefined()
      expect(sameService(after.get(teamRequest!)!), request).toBe(sameService(answer))
    }
  })
})
