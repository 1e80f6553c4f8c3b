// A maintenance window in force (issue 16): a real incident fires an alert that is recorded and
// shown (the situation names the window), but neither announced nor sent to a webhook; once the
// window is gone, the alert's resolution is announced and delivered as usual.
import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { ReportingClient } from '../../src/main/core/api/client'
import { addMaintenanceWindow, removeMaintenanceWindow } from '../../src/main/core/alerts/maintenance-windows'
import { EventHub } from '../../src/main/core/app/event-hub'
import { PollerGroup } from '../../src/main/core/app/pollers'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { startSimulator } from '../../src/main/core/simulator/server'
import { listAlerts } from '../../src/main/core/store/alerts'
import { WebhookService } from '../../src/main/core/webhooks/service'
import { startWebhookDeliveries } from '../../src/main/core/webhooks/wiring'
import type { AlertsChanged } from '../../src/shared/alerts'
import { T0 } from '../support/fake-clock'
import { ManualTimers } from '../support/manual-timers'
import { simulatorCache } from '../support/simulator-connection'
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
    const service = new WebhookService(db, osKeychain(`eventwatch-test-${randomUUID()}`), timers.clock)
    await service.add({ name: 'On call', url: receiver.url, format: 'json' })
    const deliveries = startWebhookDeliveries(db, hub, service, { clock: timers.clock, timers })
    const client = new ReportingClient(target, async () => sim.credentials, { clock: timers.clock, retry: { sleep: async () => undefined, maxAttempts: 2 } })
    const group = new PollerGroup(db, hub, { discoveryMs: 30_000, detailMs: 15_000, viewersMs: 60_000 }, { clock: timers.clock, timers })
    group.start([{ target, client, lookbackDays: 1, isDemo: false, close: async () => undefined }])
    cleanups.push(() => deliveries.stop(), () => group.stop())
    const settle = async (): Promise<void> => {
      await group.idle()
      await deliveries.deliverer.runOnce()
    }
    await group.idle()
    const advance = (ms: number) => timers.advance(ms, settle)
    await advance(60_000)

    const window = addMaintenanceWindow(
      db,
      { name: 'Patch night', startsAt: new Date(timers.now).toISOString(), endsAt: new Date(timers.now + 20 * 60_000).toISOString(), connectionId: 'c1' },
      timers.now
    )
    const victim = sim.world.sessions.filter((s) => !s.hasEnded)[0]!.eventSessionId
    sim.faults.incident(victim, { drop: 30, minutes: 5 })
    await advance(2 * 60_000)

    // Recorded and shown: the alerts are there, firing; the situation names the window.
    const firing = listAlerts(db, {}, timers.now).filter((a) => a.state === 'firing')
    expect(firing.length).toBeGreaterThanOrEqual(1)
    expect(pushes.at(-1)?.situation.maintenance).toEqual(['Patch night'])
    expect(pushes.at(-1)?.situation.headline).toMatch(/ · maintenance: Patch night$/)
    // Not announced: nothing fired in any push, each held back by the window, and nothing sent.
    expect(pushes.flatMap((p) => p.fired)).toEqual([])
    const silenced = pushes.flatMap((p) => p.silenced)
    expect(new Set(silenced.map((s) => s.id))).toEqual(new Set(firing.map((a) => a.id)))
    expect(silenced.every((s) => s.window === 'Patch night')).toBe(true)
    expect(receiver.received).toEqual([])

    // The window is removed: the recovery is announced and delivered.
    removeMaintenanceWindow(db, window.id)
    await advance(8 * 60_000)
    const resolved = pushes.flatMap((p) => p.resolved)
    expect(resolved.map((a) => a.id).sort()).toEqual(firing.map((a) => a.id).sort())
    expect(receiver.received.filter((r) => r.status === 200).map((r) => r.event)).toEqual(firing.map(() => 'resolved'))
  }, 60_000)
})

describe('eventwatch maintenance', () => {
  it('adds, lists (in force or not) and removes; a window ending before it starts is refused naming the field', async () => {
    const { execFile } = await import('node:child_process')
    const { promisify } = await import('node:util')
    const { mkdtempSync, rmSync } = await import('node:fs')
    const { tmpdir } = await import('node:os')
    const { join } = await import('node:path')
    const { CLI_BIN, cliEnv, ROOT } = await import('../support/cli')
    const dir = mkdtempSync(join(tmpdir(), 'eventwatch-maintenance-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    const run = promisify(execFile)
    const cli = (...args: string[]) => run(process.execPath, [CLI_BIN, 'maintenance', ...args, '--db', join(dir, 'cache.db')], { cwd: ROOT, env: cliEnv() })
    const now = Date.now()
    const iso = (ms: number) => new Date(ms).toISOString()
    expect((await cli('add', 'Patch night', '--from', iso(now - 60_000), '--to', iso(now + 3_600_000))).stdout).toBe('Added maintenance window 1 "Patch night" (in force now).\n')
    expect((await cli('add', 'Next week', '--from', iso(now + 86_400_000), '--to', iso(now + 90_000_000), '--every', 'weekly')).stdout).toBe('Added maintenance window 2 "Next week".\n')
    const listed = (await cli('list')).stdout.trim().split('\n')
    expect(listed).toEqual([
      `1\tPatch night\t${iso(now - 60_000)} → ${iso(now + 3_600_000)}\tnone\teverything\tIN FORCE`,
      `2\tNext week\t${iso(now + 86_400_000)} → ${iso(now + 90_000_000)}\tweekly\teverything`
    ])
    const refused = await cli('add', 'Bad', '--from', iso(now), '--to', iso(now - 1)).catch((error: { code: number; stderr: string }) => error)
    expect(refused).toMatchObject({ code: 2, stderr: 'eventwatch: configuration error: endsAt: must be after the start\n' })
    expect((await cli('remove', '1')).stdout).toBe('Removed maintenance window 1.\n')
    expect((await cli('list')).stdout.trim().split('\n')).toHaveLength(1)
  }, 30_000)
})
