// Settings saved through one server of a team take effect on the others (issue 26; docs/scaling-
// plan.md section 3, "Settings"): two cores on one PostgreSQL database, as two `serve` processes
// are. New levels saved through A reach B's pages in a settings push, once; new cadences saved
// through A change how B polls (its status says the new interval); A, which saved them, applies
// them once (it hears its own notification and ignores it). Before: B went on with the old
// cadences until it restarted, and its pages showed the old levels until they were reloaded.
import { afterEach, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { LocalAppCore } from '../../src/main/core/app/types'
import type { SecretStore } from '../../src/main/core/secrets/keychain'
import type { Status } from '../../src/shared/domain'
import type { AppSettings } from '../../src/shared/settings'
import { Cleanups, frozenSimulator, Pushes, saveConnections, testKeychain, value } from '../support/app-core'
import { freshDatabase } from '../support/postgres-databases'

const cleanups = new Cleanups()
afterEach(() => cleanups.runAll())

async function core(db: string, secrets: SecretStore): Promise<LocalAppCore> {
  const started = await startAppCore({ db, secrets, passesOnRequest: true })
  cleanups.add(() => started.close())
  return started
}

async function twoCores(): Promise<{ a: LocalAppCore; b: LocalAppCore }> {
  const database = await freshDatabase()
  cleanups.add(() => database.drop())
  const sim = await frozenSimulator(cleanups, 'settings-across')
  const secrets = testKeychain(cleanups)
  await saveConnections(database.url, secrets, [{ sim, name: 'Tenant' }])
  return { a: await core(database.url, secrets), b: await core(database.url, secrets) }
}

const levels = (warning: number, critical: number) => (settings: AppSettings) =>
  settings.thresholds.warning === warning && settings.thresholds.critical === critical

it('brings levels saved through server A to the pages of server B in one settings push, and A pushes its own once', async () => {
  const { a, b } = await twoCores()
  const [onA, onB] = [new Pushes(a), new Pushes(b)]
  const heardOnB = onB.next('settingsChanged', levels(80, 70), 10_000)

  await value(a, 'saveSettings', { thresholds: { warning: 80, critical: 70 } })
  const pushedOnB = await heardOnB
  expect(pushedOnB.thresholds).toEqual({ warning: 80, critical: 70 })
  // A heard its own save on the database too, a moment after B did: it applied it once, not twice.
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(onA.of('settingsChanged').filter(levels(80, 70))).toHaveLength(1)
  expect(onB.of('settingsChanged').filter(levels(80, 70))).toHaveLength(1)
})

it('has server B poll on the cadences saved through server A, without a restart', async () => {
  const { a, b } = await twoCores()
  const before = await value<Status>(b, 'getStatus')
  expect(before.pollIntervalSeconds).toBe(15)
  const onB = new Pushes(b)
  const polledAnew = onB.next('statusChanged', (status) => status.pollIntervalSeconds === 7, 10_000)

  await value(a, 'saveSettings', { cadences: { discoverySeconds: 30, detailSeconds: 7, viewersSeconds: 60 } })
  await polledAnew
  expect((await value<Status>(b, 'getStatus')).pollIntervalSeconds).toBe(7)
  expect((await value<Status>(a, 'getStatus')).pollIntervalSeconds).toBe(7)
})
