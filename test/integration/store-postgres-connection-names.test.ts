// Two servers of a team adding the same name at the same moment (issue 26): each checks the name
// is free, both write, and the database's unique index refuses the second. That one is told the
// name is taken, as when it was taken long before — on PostgreSQL too (before, for a connection:
// the database's own words, 'duplicate key value violates unique constraint "connections_by_name"').
// For connections, webhooks and users. (On SQLite one file's writers take turns, so the check in
// the unit sees the other's row; two stores on one file in one process would only wait on each
// other's locks with the event loop blocked, which no two servers do.)
import { afterEach, expect, it } from 'vitest'
import { ConnectionService } from '../../src/main/core/connections/service'
import type { Store } from '../../src/main/core/store/interface/store'
import { openCache } from '../../src/main/core/store/open-cache'
import { teamStoreOn } from '../../src/main/core/team/team-store'
import { TeamUsers } from '../../src/main/core/team/users'
import { WebhookService } from '../../src/main/core/webhooks/service'
import { Cleanups, frozenSimulator, simulatorSettings, testKeychain } from '../support/app-core'
import { freshDatabase } from '../support/postgres-databases'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())

/** Two stores on one database: two servers, each with its own pool. */
async function twoServers(): Promise<[Store, Store]> {
  const database = await freshDatabase()
  cleanups.add(() => database.drop())
  const stores = await Promise.all([openCache(database.url), openCache(database.url)].map(async (opened) => (await opened).store))
  for (const store of stores) cleanups.add(() => store.close())
  return [stores[0]!, stores[1]!]
}

/** Both servers' adds at once: one adds, the other is told `taken`. */
async function expectOneTaken(adds: Promise<unknown>[], taken: string): Promise<void> {
  const settled = await Promise.allSettled(adds)
  const refused = settled.filter((result): result is PromiseRejectedResult => result.status === 'rejected').map((result) => String((result.reason as Error).message))
  expect(settled.filter((result) => result.status === 'fulfilled'), refused.join(' / ')).toHaveLength(1)
  expect(refused).toEqual([taken])
}

it('tells the second of two servers adding the same connection, webhook or user at once that the name is taken', async () => {
  const sim = await frozenSimulator(cleanups, 'names')
  const secrets = testKeychain(cleanups)
  const stores = await twoServers()
  const connections = stores.map((store) => new ConnectionService(store, secrets))
  await expectOneTaken(
    connections.map((service) => service.save(simulatorSettings(sim, 'Contoso'), sim.credentials.clientSecret)),
    'the name "Contoso" is already used by another connection: choose another'
  )
  expect(await connections[0]!.list()).toHaveLength(1)

  const webhooks = stores.map((store) => new WebhookService(store, secrets))
  await expectOneTaken(
    webhooks.map((service) => service.add({ name: 'noc', url: 'https://hooks.example.com/noc', format: 'json' })),
    'a webhook named "noc" exists already: choose another name'
  )
  expect(await webhooks[0]!.list()).toHaveLength(1)

  const users = stores.map((store) => new TeamUsers(teamStoreOn(store)))
  await expectOneTaken(
    users.map((service) => service.add('alice', 'operator')),
    'there is already a user named alice.'
  )
  expect(await users[0]!.list()).toHaveLength(1)
})
