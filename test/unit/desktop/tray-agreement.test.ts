// The tray's icon, tooltip, macOS title and menu agree with each other and with the core's one
// verdict, in the situations where they used to disagree: an acknowledged alert still firing,
// a pending critical, a snoozed alert, a connection the core cannot reach, polling paused.
// The real core polls a simulated tenant on a clock the test moves (real-core.ts); only
// electron is faked.
import { basename } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))

import { resetFakeElectron, Tray } from '../../support/fake-electron'
import { createTrayController, type TrayController } from '../../../src/main/desktop/tray'
import { sessionVerdict } from '../../../src/main/desktop/tray-menu'
import type { AlertsPage, AlertSituation } from '../../../src/shared/alerts'
import type { LiveBoard, Status } from '../../../src/shared/domain'
import type { AppCore } from '../../../src/main/core/app/types'
import { plainText } from '../../../src/shared/plain-text'
import { sessionTitle } from '../../../src/shared/session-name'
import { value } from '../../support/app-core'
import { DETAIL_MS, realCore, type RealCore } from './real-core'

type MenuItem = { label?: string; type?: string; enabled?: boolean; click?: () => void }

beforeEach(() => resetFakeElectron())

/** A core polling three quiet sessions, the tray on it (as on macOS: the title shows the count). */
async function setup() {
  const world = await realCore(3)
  const tray = startTray(world)
  await world.advance(1_000)
  // Its first read of the situation, the status and the board has been answered.
  await tray.controller.ready
  const board = await value<LiveBoard>(world.core, 'listLiveSessions')
  const [victim, ...others] = board.sessions.map((s) => ({ id: s.eventSessionId, name: s.eventName ?? s.eventSessionId }))
  return { ...world, ...tray, victim: victim!, others }
}

function startTray(world: RealCore) {
  const controller = createTrayController({
    core: world.core,
    resourcesDir: '/res',
    platform: 'darwin',
    open: vi.fn(),
    quit: vi.fn(),
    acknowledge: vi.fn(),
    timers: world.timers,
    now: world.timers.clock,
    formatTime: (ms) => new Date(ms).toISOString().slice(11, 16)
  })
  const tray = Tray.instances.at(-1)!
  return { controller, tray }
}

/** A menu label as Electron shows it: "&&" is a literal "&" (a single one marks an access key). */
const displayed = (label: string): string => label.replace(/&&/g, '&')

/** What the tray shows now, read off the fake Tray. */
function shown(tray: Tray) {
  const items = (tray.setContextMenu.mock.calls.at(-1)?.[0] as { items: MenuItem[] }).items
  return {
    icon: basename((tray.setImage.mock.calls.at(-1)?.[0] ?? tray.image).path),
    tooltip: tray.setToolTip.mock.calls.at(-1)?.[0] as string,
    title: tray.setTitle.mock.calls.at(-1)?.[0] as string,
    entries: items.map((i) => displayed(i.label ?? '')).filter((l) => l.includes(' — ')),
    labels: items.map((i) => i.label ?? i.type)
  }
}

/**
 * The icon, tooltip, title and menu all say the situation the tray holds, and that situation and
 * the menu's sessions (patched from pushes) are what the core answers when asked afresh.
 */
async function expectAgreement(core: AppCore, controller: TrayController, tray: Tray): Promise<AlertSituation> {
  const situation = controller.situation!
  const now = shown(tray)
  expect(now.icon).toBe(`tray-${situation.tray}Template.png`)
  expect(now.tooltip.startsWith(`Eventwatch — ${plainText(situation.headline)}`)).toBe(true)
  expect(now.tooltip.includes('polling paused')).toBe(situation.pollingPaused)
  expect(now.labels.includes('Resume polling')).toBe(situation.pollingPaused)
  expect(now.title).toBe(situation.firing > 0 ? String(situation.firing) : '')

  const fresh = await value<AlertsPage>(core, 'listAlerts', { historyHours: 0 })
  expect({ ...fresh.situation, at: null }).toEqual({ ...situation, at: null })
  const board = await value<LiveBoard>(core, 'listLiveSessions')
  // Each session as every face names it away from its connection: with it, when several are polled.
  const verdicts = board.sessions.map((s) => `${sessionTitle(s, fresh.situation.connectionsPolled ?? 1)} — ${sessionVerdict(s, fresh.situation.blind)}`)
  expect([...now.entries].sort()).toEqual(verdicts.sort())
  return situation
}

/** The victim's alert, as the alerts view lists it. */
async function alertOf(core: AppCore, eventSessionId: string) {
  const page = await value<AlertsPage>(core, 'listAlerts', { eventSessionId })
  return page.alerts[0]!
}

/** A warning on the session (below 95, above 90: pending, then firing a poll later), acknowledged. */
async function acknowledgedWarning(world: RealCore, eventSessionId: string): Promise<void> {
  world.holdReliability(eventSessionId, 93)
  await world.advance(2 * DETAIL_MS)
  const alert = await alertOf(world.core, eventSessionId)
  expect(alert).toMatchObject({ state: 'firing', severity: 'warning' })
  await value(world.core, 'acknowledgeAlert', { id: alert.id, note: 'on it' })
}

describe('the tray agrees with the core', () => {
  it('while an acknowledged warning still fires, and with polling paused on top', async () => {
    const world = await setup()
    const { core, controller, tray, advance, victim, others } = world
    await acknowledgedWarning(world, victim.id)
    await advance(DETAIL_MS) // the row's new alert state comes with the next poll (see the last test)

    const situation = await expectAgreement(core, controller, tray)
    expect(situation).toMatchObject({ firing: 1, acknowledged: 1, worst: 'warning', tray: 'warning' })
    expect(shown(tray)).toMatchObject({ icon: 'tray-warningTemplate.png', tooltip: 'Eventwatch — 1 alert firing (1 acknowledged)', title: '1' })
    expect(shown(tray).entries[0]).toBe(`${victim.name} — warning, alert acknowledged`)
    for (const other of others) expect(shown(tray).entries).toContain(`${other.name} — good`)

    await value(core, 'setPaused', { paused: true })
    await advance(1_000)
    await expectAgreement(core, controller, tray)
    expect(shown(tray)).toMatchObject({
      icon: 'tray-pausedTemplate.png',
      tooltip: 'Eventwatch — 1 alert firing (1 acknowledged) · polling paused',
      title: '1'
    })
    expect(shown(tray).entries[0]).toBe(`${victim.name} — warning, alert acknowledged`)
  })

  it('while a critical is pending: no warning or critical icon, but the tooltip and the entry say pending critical', async () => {
    const { core, controller, tray, advance, holdReliability, victim } = await setup()
    holdReliability(victim.id, 85) // below the critical level: one poll makes it pending
    await advance(DETAIL_MS)

    const situation = await expectAgreement(core, controller, tray)
    expect(situation).toMatchObject({ firing: 0, pending: 1, worstPending: 'critical', tone: 'pending', tray: 'ok' })
    expect(shown(tray)).toMatchObject({ icon: 'tray-okTemplate.png', tooltip: 'Eventwatch — 1 pending critical', title: '' })
    expect(shown(tray).entries[0]).toBe(`${victim.name} — critical, alert pending`)

    // The next poll fires it: every surface turns critical together.
    await advance(DETAIL_MS)
    await expectAgreement(core, controller, tray)
    expect(shown(tray)).toMatchObject({ icon: 'tray-criticalTemplate.png', tooltip: 'Eventwatch — 1 alert firing', title: '1' })
    expect(shown(tray).entries[0]).toBe(`${victim.name} — critical, alert firing`)
  })

  it('while an alert is snoozed', async () => {
    const { core, controller, tray, advance, holdReliability, victim } = await setup()
    holdReliability(victim.id, 85)
    await advance(2 * DETAIL_MS)
    await value(core, 'snoozeAlert', { id: (await alertOf(core, victim.id)).id, until: '1h' })
    await advance(DETAIL_MS) // the row's new alert state comes with the next poll (see the last test)

    const situation = await expectAgreement(core, controller, tray)
    expect(situation).toMatchObject({ firing: 0, snoozed: 1, tone: 'held', tray: 'ok' })
    expect(shown(tray)).toMatchObject({ icon: 'tray-okTemplate.png', tooltip: 'Eventwatch — 1 snoozed', title: '' })
    expect(shown(tray).entries[0]).toBe(`${victim.name} — critical, alert snoozed`)
  })

  it('while the core cannot reach the connection', async () => {
    const { core, controller, tray, advance, sim, others, victim } = await setup()
    sim.faults.serverErrors(Number.POSITIVE_INFINITY, [500])
    // The poller backs off (with jitter) while the service fails; the monitor-blind rule judges
    // after each attempt, once 2 minutes have passed without success. Ten minutes is plenty.
    for (let waited = 0; controller.situation!.blind.length === 0 && waited < 10 * 60_000; waited += DETAIL_MS) {
      await advance(DETAIL_MS)
    }
    await advance(1_000) // the menu's throttle

    const situation = await expectAgreement(core, controller, tray)
    expect(situation).toMatchObject({ blind: [{ connectionId: 'c1', connectionName: 'Tenant' }], tone: 'blind', tray: 'blind' })
    expect(shown(tray).icon).toBe('tray-blindTemplate.png')
    expect(shown(tray).tooltip).toMatch(/^Eventwatch — Cannot reach Tenant( · |\n|$)/)
    // The polling status as well: since when, and why.
    expect(shown(tray).tooltip).toContain('\nTenant offline since 09:00 (HTTP 500')
    expect(shown(tray).entries.sort()).toEqual([victim, ...others].map((s) => `${s.name} — cannot reach the service`).sort())
  })

  // Issue 24: one service of three stopped answering and the header said "Offline" for the app.
  it('while one connection of three is offline: names it, since when and why, and the others connected', async () => {
    const world = await realCore(2, ['Fabrikam', 'Northwind'])
    const { controller, tray } = startTray(world)
    await controller.ready
    await world.advance(1_000)
    expect(shown(tray).tooltip).toBe('Eventwatch — No alerts') // every one connected: nothing to add

    await world.sim.close() // Tenant's service stops answering: connection refused
    await world.advance(DETAIL_MS)

    expect(shown(tray).tooltip).toBe(
      'Eventwatch — No alerts · Tenant offline\nTenant offline since 09:00 (connection refused) · Fabrikam, Northwind connected'
    )
    expect((await value<Status>(world.core, 'getStatus')).summary.state).toBe('partial') // not 'offline'
    await expectAgreement(world.core, controller, tray)
  })

  // A poll that hangs (its requests answered only after a while): no poll starts or ends, yet the
  // core's clock alone turns the connection stale and pushes it, and the tray says so.
  it('when a poll hangs: stale from the clock alone, said by the tooltip', async () => {
    const world = await realCore(2)
    const { controller, tray } = startTray(world)
    await controller.ready
    await world.advance(1_000)
    expect(shown(tray).tooltip).toBe('Eventwatch — No alerts')
    const statuses: Status[] = []
    world.core.onEvent((name, payload) => {
      if (name === 'statusChanged') statuses.push(payload as Status)
    })

    world.sim.faults.slowResponses(10, 60_000) // the next poll's requests hang (in real time)
    // The clock moves on while the poll hangs: no poll ends, only the core's own clock ticks.
    await world.timers.advance(60_000, () => new Promise<void>((resolve) => setImmediate(resolve)))

    const stale = statuses.find((s) => s.summary.state === 'stale')
    expect(stale?.connections.map((c) => [c.connectionName, c.state])).toEqual([['Tenant', 'stale']])
    expect(stale?.summary.outdated).toBe(true)
    expect(shown(tray).tooltip).toBe('Eventwatch — No alerts\nTenant stale')
  })

  it('while polling is paused', async () => {
    const { core, controller, tray, advance } = await setup()
    await value(core, 'setPaused', { paused: true })
    await advance(1_000)

    const situation = await expectAgreement(core, controller, tray)
    expect(situation).toMatchObject({ pollingPaused: true, tray: 'paused', tone: 'ok' })
    expect(shown(tray)).toMatchObject({ icon: 'tray-pausedTemplate.png', tooltip: 'Eventwatch — No alerts · polling paused', title: '' })
    expect(shown(tray).labels).toContain('Resume polling')
    expect(shown(tray).entries.every((e) => e.endsWith(' — good'))).toBe(true)
  })

  it('at once when the tray starts mid-incident, before any push', async () => {
    const world = await realCore(3)
    const board = await value<LiveBoard>(world.core, 'listLiveSessions')
    const victim = board.sessions[0]!
    await acknowledgedWarning(world, victim.eventSessionId)

    const { controller, tray } = startTray(world)
    await controller.ready
    await expectAgreement(world.core, controller, tray)
    expect(shown(tray)).toMatchObject({ icon: 'tray-warningTemplate.png', tooltip: 'Eventwatch — 1 alert firing (1 acknowledged)', title: '1' })
    expect(shown(tray).entries[0]).toBe(`${victim.eventName} — warning, alert acknowledged`)
  })

  // An operator's action pushes the session's row with the situation, so the menu entry does
  // not say "alert firing" until the next poll while the icon and tooltip say acknowledged.
  it('the menu entry says acknowledged at once, before the next poll', async () => {
    const world = await setup()
    await acknowledgedWarning(world, world.victim.id)
    await world.advance(1_000)
    const { core, controller, tray } = world
    await expectAgreement(core, controller, tray)
  })
})
