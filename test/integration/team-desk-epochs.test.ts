// A desk joined to a team server whose process restarts (issue 25, item 3): the restarted server
// counts its revisions from 0 again, in a new epoch, and the desk's tray takes its situation and
// its board whole instead of ignoring them as stale; within one epoch, an older word is ignored.
// A fake 'electron' (no Electron binary runs here), the real desktop wiring and team client, and a
// team server on loopback HTTP that says what the test tells it (support/fake-team-server.ts).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../support/fake-electron'))
import { app, BrowserWindow, fakeEvent, resetFakeElectron, Tray } from '../support/fake-electron'
import { startDesktop } from '../../src/main/desktop/app'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { teamTokenAccount } from '../../src/main/core/team/team-config'
import type { AlertsChanged } from '../../src/shared/alerts'
import { eventChannel } from '../../src/shared/contract'
import { liveRow, situationIn, startFakeTeamServer, type FakeTeamServer, type TeamWorld } from '../support/fake-team-server'
import { tempDirs } from '../support/temp-dirs'

const dir = tempDirs('eventwatch-team-epochs-')()
const FIRING = { open: [{ state: 'firing' as const, severity: 'critical' as const, n: 1 }] }

let server: FakeTeamServer | undefined
let account: string | undefined
afterAll(async () => {
  app.emit('before-quit', fakeEvent({}))
  await server?.close()
  if (account) await osKeychain().remove(account).catch(() => false)
  delete process.env['EVENTWATCH_TEAM_FILE']
  delete process.env['ELECTRON_RENDERER_URL']
})

const tray = () => Tray.instances[0]!
const trayIcon = (): string => String((tray().setImage.mock.calls.at(-1)?.[0] as { path?: string } | undefined)?.path)
/** The live rows the tray menu lists ("Town Hall — good"). */
const menuRows = (): string[] =>
  ((tray().setContextMenu.mock.calls.at(-1)?.[0] as { items: { label?: string }[] } | undefined)?.items ?? [])
    .map((i) => i.label ?? '')
    .filter((label) => / — /.test(label))

/** The situations the window was sent, in order. */
const sentToWindow = (): AlertsChanged[] =>
  BrowserWindow.instances[0]!.webContents.send.mock.calls.filter(([channel]) => channel === eventChannel('alertsChanged')).map(([, payload]) => payload as AlertsChanged)

const alertsPush = (world: TeamWorld) => ({ situation: situationIn(world), changed: [], removed: [], fired: [], resolved: [], repeated: [], silenced: [] })
const boardPush = (world: TeamWorld, rows = world.sessions, removed: { connectionId: string; eventSessionId: string }[] = []) => ({
  revision: world.boardRevision,
  epoch: world.epoch,
  at: '2026-03-01T12:00:15.000Z',
  liveCount: rows.length,
  storedCount: rows.length,
  rows,
  removed
})

describe('a desk whose team server restarts', () => {
  it('takes the restarted server’s situation and board whole (a new epoch, lower revisions), and ignores older words within an epoch', async () => {
    // Long up: high counts, an incident, one live session.
    const before: TeamWorld = { epoch: 'boot-1', boardRevision: 500, alertRevision: 900, sessions: [liveRow('s1', 'Before the restart')], facts: FIRING }
    server = await startFakeTeamServer(before)
    const teamFile = join(dir, 'team-server.json')
    writeFileSync(teamFile, JSON.stringify({ url: server.origin, pinnedSha256: null, user: 'alice' }))
    account = teamTokenAccount(server.origin)
    await osKeychain().save(account, 'alice-token')
    process.env['EVENTWATCH_TEAM_FILE'] = teamFile
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173'
    resetFakeElectron()
    app.getPath.mockImplementation((name: string) => join(dir, 'desk', name))
    startDesktop({ platform: 'linux' })
    await vi.waitFor(() => expect(Tray.instances).toHaveLength(1), { timeout: 20_000 })
    await vi.waitFor(() => expect(trayIcon()).toContain('tray-critical'), { timeout: 10_000 })
    await vi.waitFor(() => expect(menuRows()).toEqual(['Before the restart — good']), { timeout: 10_000 })
    // The desk's stream is up: it read the server's situation afresh and passed it on.
    await vi.waitFor(() => expect(sentToWindow().at(-1)?.situation).toMatchObject({ revision: 900, tray: 'critical' }), { timeout: 10_000 })

    // The server restarts: all clear now, another session, counting from 0 in a new epoch.
    const after: TeamWorld = { epoch: 'boot-2', boardRevision: 1, alertRevision: 0, sessions: [liveRow('s2', 'After the restart')], facts: {} }
    server.become(after)
    server.dropStreams()
    await vi.waitFor(() => expect(trayIcon()).toContain('tray-blind'), { timeout: 10_000 })
    await vi.waitFor(() => expect(server!.streams).toBe(2), { timeout: 10_000 })
    await vi.waitFor(() => expect(trayIcon()).toContain('tray-ok'), { timeout: 10_000 })
    server.push('sessionsChanged', boardPush(after, after.sessions, [{ connectionId: 'c1', eventSessionId: 's1' }]))
    await vi.waitFor(() => expect(menuRows()).toEqual(['After the restart — good']), { timeout: 10_000 })

    // Within the new epoch, revisions compare: a newer word is taken, an older one ignored.
    server.push('alertsChanged', alertsPush({ ...after, alertRevision: 2, facts: FIRING }))
    await vi.waitFor(() => expect(trayIcon()).toContain('tray-critical'))
    server.push('alertsChanged', alertsPush({ ...after, alertRevision: 1 }))
    server.push('sessionsChanged', boardPush(after, [liveRow('s3', 'Old news')]))
    server.push('sessionsChanged', boardPush({ ...after, boardRevision: 2 }, [liveRow('s4', 'Next in line')]))
    await vi.waitFor(() => expect(menuRows()).toEqual(['After the restart — good', 'Next in line — good']), { timeout: 10_000 })
    expect(trayIcon()).toContain('tray-critical')
  }, 60_000)
})
