// A SQLite cache as a team server's months leave it, made by a real app core polling two simulators
// over loopback: sessions live and ended with their snapshots and viewer lists, alerts fired,
// acknowledged, snoozed and resolved, two webhooks with outbox rows (one signed, one whose URL
// carries a secret query; the receiver refusing at first), notifications paused, a maintenance window, users with a sign-in and settings of their
// own, the audit of it all, app settings, a site's name and a problem in Diagnostics. The core is
// closed before this returns: the file holds still.
import type { AppCore } from '../../src/main/core/app/types'
import type { SecretStore } from '../../src/main/core/secrets/keychain'
import type { AlertsPage } from '../../src/shared/alerts'
import { coreWithConnections, frozenSimulator, pollAll, value, type Cleanups } from './app-core'
import { webhookReceiver } from './webhook-receiver'

export interface FilledCache {
  dbFile: string
  /** The keychain the core kept the connections' and webhooks' secrets in (a test's own service). */
  secrets: SecretStore
  /** Connection ids by name (A, B). */
  ids: Record<string, string>
  /** The session of each connection whose reliability fell. */
  victims: Record<string, string>
}

const live = (sim: Awaited<ReturnType<typeof frozenSimulator>>) => sim.world.sessions.filter((s) => !s.hasEnded)

export async function fillCacheThroughCore(cleanups: Cleanups, dir: string): Promise<FilledCache> {
  const sims = { A: await frozenSimulator(cleanups, 'a', { seed: 41 }), B: await frozenSimulator(cleanups, 'b', { seed: 42, reliabilityScale: '0-1' }) }
  const receiver = await webhookReceiver()
  cleanups.add(() => receiver.close())
  const { core, ids, dbFile, secrets } = await coreWithConnections(cleanups, dir, [
    { sim: sims.A, name: 'A' },
    { sim: sims.B, name: 'B' }
  ])
  await value(core, 'addWebhook', { settings: { name: 'On call', url: `${receiver.url}/on-call`, format: 'json' }, secret: 'signing-secret' })
  await value(core, 'addWebhook', { settings: { name: 'Team chat', url: `${receiver.url}/chat?sig=chat-signature`, format: 'slack' } })
  receiver.answer(503, 503) // the first deliveries wait in the outbox with their error

  const victims = { A: live(sims.A)[0]!.eventSessionId, B: live(sims.B)[0]!.eventSessionId }
  sims.A.faults.incident(victims.A, { drop: 25, minutes: 60 })
  sims.B.faults.incident(victims.B, { drop: 25, minutes: 60 })
  await pollAll(core)
  await pollAll(core) // below the critical level twice: both fire

  const firingOf = async (connectionId: string) =>
    (await value<AlertsPage>(core, 'listAlerts')).alerts.filter((a) => a.connectionId === connectionId && a.state === 'firing')
  const [acknowledged, snoozed] = await firingOf(ids.B!)
  await value(core, 'acknowledgeAlert', { id: acknowledged!.id, note: 'looking into it' })
  if (snoozed) await value(core, 'snoozeAlert', { id: snoozed.id, until: '1h' })
  await value(core, 'setSessionAlertOverride', { connectionId: ids.B!, eventSessionId: victims.B, thresholds: { warning: 60, critical: 50 } })
  // A's alerts end: the connection is no longer polled (resolved, "unwatched"), then polled again.
  await value(core, 'setConnectionEnabled', { id: ids.A!, enabled: false })
  await value(core, 'setConnectionEnabled', { id: ids.A!, enabled: true })
  await pollAll(core)

  await value(core, 'addMaintenance', {
    window: { name: 'Patch night', startsAt: '2031-03-01T22:00:00Z', endsAt: '2031-03-02T02:00:00Z', connectionId: ids.A! }
  })
  await value(core, 'saveSettings', { display: { trafficUnit: 'megabytes' }, retention: { auditDays: 400 } })
  await value(core, 'setSiteName', { code: 101, name: 'Head office' })
  await value(core, 'pauseNotifications', { minutes: 30 })
  core.recordProblem({ endpoint: 'window', message: 'a page of the app crashed' })
  await teamOf(core)
  await core.close()
  return { dbFile, secrets, ids, victims }
}

/** Two users; alice signs in and keeps a display of her own. */
async function teamOf(core: AppCore): Promise<void> {
  const alice = await value<{ token: string }>(core, 'addUser', { name: 'alice', role: 'operator' })
  await value(core, 'addUser', { name: 'bob', role: 'viewer' })
  const signedIn = await core.users?.signIn(alice.token)
  if (!signedIn) throw new Error('alice could not sign in')
  const asAlice = { actor: { name: 'alice', role: 'operator' as const }, team: true }
  const saved = await core.dispatch('saveSettings', { display: { theme: 'light' } }, asAlice)
  if (!saved.ok) throw new Error(`alice's display: ${saved.error.message}`)
}
