// A maintenance window in force (issue 16): a real incident fires an alert that is recorded and
// shown (the situation names the window), but neither announced nor sent to a webhook; once the
// window is gone, the alert's resolution is announced and delivered as usual.
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { ReportingClient } from '../../src/main/core/api/client'
import { addMaintenanceWindow, removeMaintenanceWindow } from '../../src/main/core/alerts/maintenance-windows'
import { EventHub } from '../../src/main/core/app/event-hub'
import { PollerGroup } from '../../src/main/core/app/pollers'
import { storesOf } from '../support/poll-stores'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { startSimulator } from '../../src/main/core/simulator/server'
import { listAlerts } from '../../src/main/core/store/alerts'
import { WebhookService } from '../../src/main/core/webhooks/service'
import { WebhookOutbox } from '../../src/main/core/webhooks/outbox'
import { startWebhookDeliveries } from '../../src/main/core/webhooks/wiring'
import type { AlertsChanged } from '../../src/shared/alerts'
import { plainText } from '../../src/shared/plain-text'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { simulatorCache } from '../support/simulator-connection'
import { storeOn } from '../support/store-on'
import { webhookReceiver } from '../support/webhook-receiver'

const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

describe('maintenance windows', () => {
  it('hold back announcements and deliveries, not the records', async () => {
    const receiver = await webhookReceiver()
    cleanups.push(() => receiver.close())
    const timers = new ManualTimers(T0)
    const sim = await startSimulator({ clock: timers.clock, liveSessions: 2, endedSessions: 0, viewersPerSession: 50, churnSessions: false, randomIncidents: false })
    cleanups.push(() => sim.close())
    const { db, target } = simulatorCache(sim)
    const hub = new EventHub()
    const pushes: AlertsChanged[] = []
    hub.subscribe((name, payload) => {
      if (name === 'alertsChanged') pushes.push(payload as AlertsChanged)
    })
    const store = storeOn(db)
    const service = new WebhookService(store, osKeychain(`eventwatch-test-${randomUUID()}`), timers.clock)
    await service.add({ name: 'On call', url: receiver.url, format: 'json' })
    const outbox = new WebhookOutbox()
    const deliveries = startWebhookDeliveries(store, outbox, service, { clock: timers.clock, timers })
    const client = new ReportingClient(target, async () => sim.credentials, { clock: timers.clock, retry: { sleep: async () => undefined, maxAttempts: 2 } })
    const group = await PollerGroup.open(store, hub, { discoveryMs: 30_000, detailMs: 15_000, viewersMs: 60_000 }, { viewerStore: storesOf(db).viewerStore, clock: timers.clock, timers, outbox })
    await group.start([{ target, client, lookbackDays: 1, isDemo: false, close: async () => undefined }])
    cleanups.push(() => deliveries.stop(), () => group.stop())
    const settle = async (): Promise<void> => {
      await group.idle()
      await deliveries.deliverer.runOnce()
    }
    await group.idle()
    const advance = (ms: number) => timers.advance(ms, settle)
    await advance(60_000)

    const window = await store.withTransaction((tx) =>
      addMaintenanceWindow(
        tx.maintenance,
        { name: 'Patch night', startsAt: new Date(timers.now).toISOString(), endsAt: new Date(timers.now + 20 * 60_000).toISOString(), connectionId: 'c1' },
        timers.now
      )
    )
    const victim = sim.world.sessions.filter((s) => !s.hasEnded)[0]!.eventSessionId
    sim.faults.incident(victim, { drop: 30, minutes: 5 })
    await advance(2 * 60_000)

    // Recorded and shown: the alerts are there, firing; the situation names the window.
    const firing = listAlerts(db, {}, timers.now).filter((a) => a.state === 'firing')
    expect(firing.length).toBeGreaterThanOrEqual(1)
    expect(pushes.at(-1)?.situation.maintenance).toEqual(['Patch night'])
    expect(plainText(pushes.at(-1)?.situation.headline ?? '')).toMatch(/ · maintenance: Patch night$/)
    // Not announced: nothing fired in any push, each held back by the window, and nothing sent.
    expect(pushes.flatMap((p) => p.fired)).toEqual([])
    const silenced = pushes.flatMap((p) => p.silenced)
    expect(new Set(silenced.map((s) => s.id))).toEqual(new Set(firing.map((a) => a.id)))
    expect(silenced.every((s) => s.window === 'Patch night')).toBe(true)
    expect(receiver.received).toEqual([])

    // The window is removed: the recovery is announced and delivered.
    await store.withTransaction((tx) => removeMaintenanceWindow(tx.maintenance, window.id))
    await advance(8 * 60_000)
    const resolved = pushes.flatMap((p) => p.resolved)
    expect(resolved.map((a) => a.id).sort()).toEqual(firing.map((a) => a.id).sort())
    expect(receiver.received.filter((r) => r.status === 200).map((r) => r.event)).toEqual(firing.map(() => 'resolved'))
  }, 60_000)
})

describe('maintenance windows through the app API', () => {
  it('carry their zone (the machine\'s when none is given), refuse a time without an offset, and add a window over everything only when confirmed', async () => {
    const { startCore, Pushes, value, Cleanups } = await import('../support/app-core')
    const { tempDirs } = await import('../support/temp-dirs')
    const { join } = await import('node:path')
    const { systemTimeZone } = await import('../../src/shared/time-zones')
    const dir = tempDirs('eventwatch-maintenance-api-')()
    const own = new Cleanups()
    cleanups.push(() => own.runAll())
    const core = await startCore(own, { db: join(dir, 'cache.db'), sources: async () => [], teamFile: join(dir, 'team.json') })
    const pushes = new Pushes(core)
    const now = Date.now()
    const window = { name: 'Patch night', startsAt: new Date(now - 60_000).toISOString(), endsAt: new Date(now + 3_600_000).toISOString(), timeZone: 'Europe/Berlin' }

    const refused = await core.dispatch('addMaintenance', { window })
    expect(refused).toMatchObject({ ok: false })
    expect(!refused.ok && refused.error.message).toBe(
      'Adding a maintenance window failed: not added without a confirmation (confirmBroad): it covers everything (no connection, content or session chosen), so no alert of any connection would be notified or sent to a webhook while it is in force'
    )
    const bare = await core.dispatch('addMaintenance', { window: { ...window, startsAt: '2026-03-21T22:00' }, confirmBroad: true })
    expect(!bare.ok && bare.error.message).toMatch(/startsAt.*needs a date, a time and an offset/)
    const wrongZone = await core.dispatch('addMaintenance', { window: { ...window, timeZone: 'Europe/Atlantis' }, confirmBroad: true })
    expect(!wrongZone.ok && wrongZone.error.message).toMatch(/timeZone.*is not an IANA time zone name known here/)

    const silenced = pushes.next('alertsChanged', (p) => p.situation.maintenance.includes('Patch night'))
    const added = await value<{ timeZone: string; broad: string[]; inForce: boolean }>(core, 'addMaintenance', { window, confirmBroad: true })
    expect(added).toMatchObject({ timeZone: 'Europe/Berlin', broad: ['everything'], inForce: true })
    // The header leads with it: every alert is held back.
    expect(plainText((await silenced).situation.headline)).toBe('All alerts silenced by Patch night · no alerts')
    const { timeZone: _zone, ...zoneless } = window
    const defaulted = await value<{ timeZone: string }>(core, 'addMaintenance', { window: { ...zoneless, name: 'Zoneless' }, confirmBroad: true })
    expect(defaulted.timeZone).toBe(systemTimeZone() ?? 'UTC')
    const listed = await value<{ name: string; timeZone: string }[]>(core, 'listMaintenance')
    expect(listed.map((w) => [w.name, w.timeZone])).toEqual([
      ['Patch night', 'Europe/Berlin'],
      ['Zoneless', systemTimeZone() ?? 'UTC']
    ])
  }, 30_000)
})

describe('eventwatch maintenance', () => {
  it('adds (a window over everything or longer than a week only with --yes), lists with zones and in force or not, and removes; bad values are refused naming the flag', async () => {
    const { execFile } = await import('node:child_process')
    const { promisify } = await import('node:util')
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { CLI_BIN, cliEnv, ROOT } = await import('../support/cli')
    const { openDatabase } = await import('../../src/main/core/store/db')
    const dir = mkdtempSync(join(tmpdir(), 'eventwatch-maintenance-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'cache.db')
    const db = openDatabase(file)
    db.prepare(
      `INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, is_demo, created_at)
       VALUES ('c1', 'Tenant A', 'https://api.example.test', 'https://auth.example.test', 'p', 't', 'c', 0, 0)`
    ).run()
    db.close()
    const run = promisify(execFile)
    // The machine's zone is New York's: a time without an offset is read there unless --time-zone says otherwise.
    const cli = (...args: string[]) => run(process.execPath, [CLI_BIN, 'maintenance', ...args, '--db', file], { cwd: ROOT, env: cliEnv({ TZ: 'America/New_York' }) })
    const failure = (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr })
    const now = Date.now()
    const iso = (ms: number) => new Date(ms).toISOString()
    const zoned = (zone: string, ms: number) => {
      const parts = Object.fromEntries(
        new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', timeZoneName: 'longOffset' })
          .formatToParts(ms)
          .map((p) => [p.type, p.value])
      )
      const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).slice(3)
      return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`
    }

    const everything = await cli('add', 'Patch night', '--from', iso(now - 60_000), '--to', iso(now + 3_600_000)).catch(failure)
    expect(everything).toEqual({
      code: 2,
      stderr:
        'eventwatch: "Patch night" not added: it covers everything (no connection, content or session chosen), so no alert of any connection would be notified or sent to a webhook while it is in force. Give --yes to add it all the same.\n'
    })
    expect(await cli('add', 'Patch night', '--from', iso(now - 60_000), '--to', iso(now + 3_600_000), '--yes')).toEqual({ stdout: 'Added maintenance window 1 "Patch night" (in force now).\n', stderr: '' })

    const long = ['add', 'Freeze', '--connection', 'Tenant A', '--from', '2031-01-06T00:00', '--to', '2031-01-16T00:00', '--time-zone', 'Europe/Berlin']
    expect(await cli(...long).catch(failure)).toEqual({
      code: 2,
      stderr:
        'Read --from and --to in Europe/Berlin (--time-zone).\n' +
        'eventwatch: "Freeze" not added: it lasts 10 days, more than 7, so the alerts it covers would go unannounced all that time. Give --yes to add it all the same.\n'
    })
    expect((await cli(...long, '--yes')).stdout).toBe('Added maintenance window 2 "Freeze".\n')

    // Saturday 22:00–23:00 Berlin from before the change in March (years ahead: none is in force now), read in the zone given.
    expect(await cli('add', 'Saturday night', '--connection', 'Tenant A', '--from', '2030-03-23T22:00', '--to', '2030-03-23T23:00', '--every', 'weekly', '--time-zone', 'europe/berlin')).toEqual({
      stdout: 'Added maintenance window 3 "Saturday night".\n',
      stderr: 'Read --from and --to in Europe/Berlin (--time-zone).\n'
    })
    // Without --time-zone: the machine's zone, and it says so.
    expect(await cli('add', 'Nightly', '--connection', 'Tenant A', '--from', '2030-03-29T01:00', '--to', '2030-03-29T02:00', '--every', 'daily')).toEqual({
      stdout: 'Added maintenance window 4 "Nightly".\n',
      stderr: "Read --from and --to in America/New_York (this machine's time zone; --time-zone NAME for another).\n"
    })
    expect(await cli('add', 'Offsets', '--connection', 'Tenant A', '--from', '2030-03-29T01:00+01:00', '--to', '2030-03-29T02:00+01:00', '--every', 'daily')).toEqual({
      stdout: 'Added maintenance window 5 "Offsets".\n',
      stderr: "Repeats daily at the same time of day in America/New_York (this machine's time zone; --time-zone NAME for another).\n"
    })

    expect(await cli('add', 'Bad', '--connection', 'Tenant A', '--from', iso(now), '--to', iso(now - 1)).catch(failure)).toEqual({ code: 2, stderr: 'eventwatch: configuration error: --to: must be after the start\n' })
    expect(await cli('add', 'Bad', '--connection', 'Tenant A', '--from', '2026-03-21T22:00', '--to', '2026-03-21T23:00', '--time-zone', 'Europe/Atlantis').catch(failure)).toEqual({
      code: 2,
      stderr: 'eventwatch: --time-zone: "Europe/Atlantis" is not an IANA time zone name known here (such as Europe/Berlin, America/New_York or UTC).\n'
    })
    expect(await cli('add', 'Bad', '--connection', 'Tenant A', '--from', '2026-03-29T02:30', '--to', '2026-03-29T04:00', '--time-zone', 'Europe/Berlin').catch(failure)).toEqual({
      code: 2,
      stderr: 'eventwatch: --from: 2026-03-29T02:30 does not exist in Europe/Berlin: the clocks jump from +01:00 to +02:00 over it. Give a time outside the jump, or an offset.\n'
    })

    const listed = (await cli('list')).stdout.trim().split('\n')
    expect(listed).toEqual([
      `1\tPatch night\t${zoned('America/New_York', now - 60_000)} → ${zoned('America/New_York', now + 3_600_000)}\tnone\tAmerica/New_York\teverything\tIN FORCE`,
      `3\tSaturday night\t2030-03-23T22:00:00+01:00 → 2030-03-23T23:00:00+01:00\tweekly\tEurope/Berlin\tTenant A, all sessions`,
      `5\tOffsets\t2030-03-28T20:00:00-04:00 → 2030-03-28T21:00:00-04:00\tdaily\tAmerica/New_York\tTenant A, all sessions`,
      `4\tNightly\t2030-03-29T01:00:00-04:00 → 2030-03-29T02:00:00-04:00\tdaily\tAmerica/New_York\tTenant A, all sessions`,
      `2\tFreeze\t2031-01-06T00:00:00+01:00 → 2031-01-16T00:00:00+01:00\tnone\tEurope/Berlin\tTenant A, all sessions`
    ])
    expect((await cli('remove', '1')).stdout).toBe('Removed maintenance window 1.\n')
    expect((await cli('list')).stdout.trim().split('\n')).toHaveLength(4)
  }, 60_000)
})
