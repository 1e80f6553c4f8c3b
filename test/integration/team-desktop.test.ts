// The desktop app as a team server's client (issue 17): a fake 'electron' (no Electron binary
// runs here), the real desktop wiring, and a real team server over HTTPS on loopback whose
// certificate the desk trusts by its pinned fingerprint. Requests from the window go to the
// server through IPC and the main process; the server's pushes reach the window, the tray and
// the notifications; a server restart is said (offline, since when) and recovered from by itself.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../support/fake-electron'))
import { app, BrowserWindow, fakeEvent, ipcMain, Notification, resetFakeElectron, Tray } from '../support/fake-electron'
import { startDesktop } from '../../src/main/desktop/app'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { teamTokenAccount } from '../../src/main/core/team/team-config'
import type { WebHost } from '../../src/main/web/server'
import { eventChannel, requestChannel } from '../../src/shared/contract'
import type { AlertsChanged, AlertsPage } from '../../src/shared/alerts'
import type { Status } from '../../src/shared/domain'
import type { Result } from '../../src/shared/result'
import { standingOf, takesPush } from '../../src/shared/revisions'
import { Pushes } from '../support/app-core'
import { tempDirs } from '../support/temp-dirs'
import { addUser, startTeamHost, stubRenderer, throwawayCertificate, trustingFetch } from '../support/team-server'

const tempDir = tempDirs('eventwatch-team-desk-')
const dir = tempDir()
const dbFile = join(dir, 'server.db')
const tls = throwawayCertificate(dir)
const rendererDir = stubRenderer(dir)
const CADENCES = { discoveryMs: 1000, detailMs: 1000, viewersMs: 60_000 }

let server: { core: AppCore; host: WebHost } | undefined
let account: string | undefined
async function startServer(port = 0): Promise<{ core: AppCore; host: WebHost }> {
  const core = await startAppCore({ db: dbFile, cadences: CADENCES, demoIncidentAfterSeconds: 0 })
  const host = await startTeamHost(core, tls, rendererDir, port)
  return (server = { core, host })
}
async function stopServer(): Promise<void> {
  await server?.host.close()
  await server?.core.close()
  server = undefined
}
afterAll(async () => {
  app.emit('before-quit', fakeEvent({}))
  await stopServer()
  if (account) await osKeychain().remove(account).catch(() => false)
  delete process.env['EVENTWATCH_TEAM_FILE']
  delete process.env['ELECTRON_RENDERER_URL']
})

/** A request from the window, through IPC, as the preload sends it. */
async function fromWindow<T>(name: string, args: unknown = {}): Promise<Result<T>> {
  const handler = ipcMain.handlers.get(requestChannel(name as never))!
  return (await handler(fakeEvent({ senderFrame: { url: 'http://localhost:5173/', parent: null } }), args)) as Result<T>
}

/** The tray icon's file, as last set. */
const trayIcon = (): string => String((Tray.instances[0]!.setImage.mock.calls.at(-1)?.[0] as { path?: string } | undefined)?.path)

/** What the window was sent on one event channel, in order. */
const sentToWindow = <T>(name: string): T[] =>
  BrowserWindow.instances[0]!.webContents.send.mock.calls.filter(([channel]) => channel === eventChannel(name as never)).map(([, payload]) => payload as T)

describe('the desktop app as a team server client', () => {
  it('relays requests and pushes to the server, and recovers after the server restarts', async () => {
    // The server, mid-incident, with two operators.
    const { core, host } = await startServer()
    const fired = await new Pushes(core).next('alertsChanged', (p) => p.fired.some((a) => a.rule === 'reliability-below'), 30_000)
    const alertId = fired.fired.find((a) => a.rule === 'reliability-below')!.id
    const alice = await addUser(dbFile, 'alice', 'operator')
    const bob = await addUser(dbFile, 'bob', 'operator')
    const port = host.address.port

    // This desk joined the team as alice, pinning the server's certificate.
    const teamFile = join(dir, 'team-server.json')
    writeFileSync(teamFile, JSON.stringify({ url: host.origin, pinnedSha256: tls.fingerprint, user: 'alice' }))
    account = teamTokenAccount(host.origin)
    await osKeychain().save(account, alice)
    process.env['EVENTWATCH_TEAM_FILE'] = teamFile
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173'
    resetFakeElectron()
    app.getPath.mockImplementation((name: string) => join(dir, 'desk', name))
    startDesktop({ platform: 'linux' })
    await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1), { timeout: 20_000 })

    // Requests from the window are the server's answers, as alice.
    expect(await fromWindow('getIdentity')).toEqual({ ok: true, value: { name: 'alice', role: 'operator', team: true } })
    const page = await fromWindow<AlertsPage>('listAlerts')
    expect(page.ok && page.value.alerts.find((a) => a.id === alertId)?.state).toBe('firing')
    // The desk polls nothing itself: it has no cache of its own.
    expect(await fromWindow('deleteConnection', { id: 'demo' })).toMatchObject({ ok: false, error: { code: 'forbidden' } })

    // Bob acknowledges on his own page: the push reaches this window and a notification names him.
    await vi.waitFor(() => expect(sentToWindow('statusChanged').length).toBeGreaterThan(0), { timeout: 20_000 })
    const fetcher = trustingFetch(tls.caFile)
    const acked = await fetcher(`${host.origin}/api/request/acknowledgeAlert`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${bob}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id: alertId, note: 'CDN ticket open' })
    })
    expect(await acked.json()).toMatchObject({ ok: true })
    await vi.waitFor(
      () => expect(sentToWindow<AlertsChanged>('alertsChanged').flatMap((c) => c.changed).find((a) => a.id === alertId)?.transitions.at(-1)?.by).toBe('bob'),
      { timeout: 10_000 }
    )
    await vi.waitFor(() => expect(Notification.instances.map((n) => n.options['title'])).toContain('Acknowledged by bob: Reliability critical: ' + fired.fired.find((a) => a.id === alertId)!.eventName))
    // The tray follows the server's situation: critical, acknowledged.
    expect(Tray.instances[0]!.setImage.mock.calls.length).toBeGreaterThan(0)

    // The server goes away: the window hears it is offline, since when, and why; the tray turns blind.
    const lostAt = Date.now()
    await stopServer()
    await vi.waitFor(() => expect(sentToWindow<Status>('statusChanged').at(-1)?.pollState).toBe('offline'), { timeout: 10_000 })
    const offline = sentToWindow<Status>('statusChanged').at(-1)!
    expect(Date.parse(offline.offlineSince!)).toBeGreaterThanOrEqual(lostAt - 1000)
    expect(offline.lastError).toMatch(new RegExp(`^Team server https://127\\.0\\.0\\.1:${port} unreachable: `))
    expect(await fromWindow('getStatus')).toMatchObject({ ok: true, value: { pollState: 'offline' } })
    expect(await fromWindow('listAlerts')).toMatchObject({ ok: false, error: { code: 'unreachable', message: expect.stringContaining(`https://127.0.0.1:${port}`) } })
    const blind = sentToWindow<AlertsChanged>('alertsChanged').at(-1)!
    expect(blind.situation).toMatchObject({ tray: 'blind', headline: expect.stringMatching(/^Team server offline since /) })
    await vi.waitFor(() => expect(trayIcon()).toContain('blind'))

    // It comes back on the same address: the desk reconnects by itself, reloads the window, and
    // pushes flow again — in the restarted server's new epoch, counting from 0 again, which every
    // face takes whole (shared/revisions.ts), as the tray does.
    const loadsBefore = BrowserWindow.instances[0]!.loadURL.mock.calls.length
    await startServer(port)
    await vi.waitFor(() => expect(sentToWindow<Status>('statusChanged').at(-1)?.pollState).not.toBe('offline'), { timeout: 30_000 })
    await vi.waitFor(() => expect(BrowserWindow.instances[0]!.loadURL.mock.calls.length).toBeGreaterThan(loadsBefore))
    const back = sentToWindow<AlertsChanged>('alertsChanged').at(-1)!
    expect(back.situation.epoch).not.toBe(blind.situation.epoch)
    expect(takesPush(blind.situation, back.situation)).toBe(true)
    expect(back.situation.tray).not.toBe('blind')
    await vi.waitFor(() => expect(trayIcon()).not.toContain('blind'))

    const snoozed = await fromWindow<AlertsPage>('snoozeAlert', { id: alertId, until: '15m' })
    expect(snoozed.ok && snoozed.value.alerts.find((a) => a.id === alertId)).toMatchObject({ state: 'snoozed' })
    await vi.waitFor(
      () => expect(sentToWindow<AlertsChanged>('alertsChanged').at(-1)?.changed.find((a) => a.id === alertId)?.transitions.at(-1)).toMatchObject({ state: 'snoozed', by: 'alice' }),
      { timeout: 10_000 }
    )
    expect(standingOf(back.situation, sentToWindow<AlertsChanged>('alertsChanged').at(-1)!.situation)).toBe('newer')

    // A second loss, of the network this time (the server's core keeps running and counting), and
    // its return are taken too: the offline word in an epoch of the desk's own, then the server's.
    const beforeSecond = sentToWindow<AlertsChanged>('alertsChanged').at(-1)!.situation
    const running = server!
    await running.host.close()
    await vi.waitFor(() => expect(sentToWindow<AlertsChanged>('alertsChanged').at(-1)?.situation.tray).toBe('blind'), { timeout: 10_000 })
    const blindAgain = sentToWindow<AlertsChanged>('alertsChanged').at(-1)!.situation
    expect(takesPush(beforeSecond, blindAgain)).toBe(true)
    await vi.waitFor(() => expect(trayIcon()).toContain('blind'))
    running.host = await startTeamHost(running.core, tls, rendererDir, port)
    await vi.waitFor(() => expect(sentToWindow<AlertsChanged>('alertsChanged').at(-1)?.situation.tray).not.toBe('blind'), { timeout: 30_000 })
    const backAgain = sentToWindow<AlertsChanged>('alertsChanged').at(-1)!.situation
    expect(backAgain.epoch).toBe(beforeSecond.epoch)
    expect(takesPush(blindAgain, backAgain)).toBe(true)
    await vi.waitFor(() => expect(trayIcon()).not.toContain('blind'))

    // Settings → Team server is this desk's own, answered here and not by the server: it can leave.
    expect(await fromWindow('getTeamServer')).toEqual({ ok: true, value: { url: host.origin, pinnedSha256: tls.fingerprint, user: 'alice' } })
    expect(await fromWindow('leaveTeamServer')).toEqual({ ok: true, value: { left: true } })
    expect(existsSync(teamFile)).toBe(false)
    expect(await osKeychain().read(account)).toBeNull()
  }, 120_000)
})
