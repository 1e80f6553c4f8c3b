// A desk joined to a team server keeps its own start at login (issue 25, item 5): a fake
// 'electron' (no Electron binary runs here), the real desktop wiring, and a real team server over
// HTTPS on loopback. The desk chose to start at login before it joined; the server's own setting
// says the opposite. The desk's login item (an XDG autostart entry) follows the desk's choice, is
// changed from its window, and never follows the server's, whatever the server saves.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../support/fake-electron'))
import { app, BrowserWindow, fakeEvent, ipcMain, resetFakeElectron } from '../support/fake-electron'
import { startDesktop } from '../../src/main/desktop/app'
import { autostartFile } from '../../src/main/desktop/login-item'
import { startAppCore } from '../../src/main/core/app/start'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { openDatabase } from '../../src/main/core/store/db'
import { getDesktopSettings, setDesktopSettings } from '../../src/main/core/store/settings'
import { teamTokenAccount } from '../../src/main/core/team/team-config'
import { eventChannel, requestChannel } from '../../src/shared/contract'
import type { Result } from '../../src/shared/result'
import type { AppSettings } from '../../src/shared/settings'
import { Cleanups, value } from '../support/app-core'
import { tempDirs } from '../support/temp-dirs'
import { addUser, startTeamHost, stubRenderer, throwawayCertificate } from '../support/team-server'

const cleanups = new Cleanups()
const dir = tempDirs('eventwatch-team-desk-login-')()
const saved = { XDG_CONFIG_HOME: process.env['XDG_CONFIG_HOME'], EVENTWATCH_DB: process.env['EVENTWATCH_DB'] }
afterAll(async () => {
  app.emit('before-quit', fakeEvent({}))
  await cleanups.runAll()
  for (const [name, was] of Object.entries(saved)) {
    if (was === undefined) delete process.env[name]
    else process.env[name] = was
  }
  delete process.env['EVENTWATCH_TEAM_FILE']
  delete process.env['ELECTRON_RENDERER_URL']
})

/** A request from the window, through IPC, as the preload sends it. */
async function fromWindow<T>(name: string, args: unknown = {}): Promise<Result<T>> {
  const handler = ipcMain.handlers.get(requestChannel(name as never))!
  return (await handler(fakeEvent({ senderFrame: { url: 'http://localhost:5173/', parent: null } }), args)) as Result<T>
}

/** The desktop settings of the settingsChanged pushes the window was sent, in order. */
const desktopPushed = (): boolean[] =>
  BrowserWindow.instances[0]!.webContents.send.mock.calls
    .filter(([channel]) => channel === eventChannel('settingsChanged'))
    .map(([, payload]) => (payload as AppSettings).desktop.startAtLogin)

describe('a desk joined to a team server', () => {
  it("keeps its own start at login: the desk's choice, changed from its window, never the server's", async () => {
    // The team server, whose own setting is not to start at login.
    const serverDb = join(dir, 'server.db')
    const tls = throwawayCertificate(dir)
    const server = await startAppCore({ db: serverDb, cadences: { discoveryMs: 60_000, detailMs: 60_000, viewersMs: 600_000 } })
    cleanups.add(() => server.close())
    const host = await startTeamHost(server, tls, stubRenderer(dir))
    cleanups.add(() => host.close())
    const alice = await addUser(serverDb, 'alice', 'operator')

    // This desk started at login before it joined the team (its own cache says so), then joined as alice.
    const deskDb = join(dir, 'desk.db')
    const before = openDatabase(deskDb)
    setDesktopSettings(before, { startAtLogin: true })
    before.close()
    const teamFile = join(dir, 'team-server.json')
    writeFileSync(teamFile, JSON.stringify({ url: host.origin, pinnedSha256: tls.fingerprint, user: 'alice' }))
    const account = teamTokenAccount(host.origin)
    await osKeychain().save(account, alice)
    cleanups.add(() => osKeychain().remove(account).then(() => undefined))
    process.env['EVENTWATCH_TEAM_FILE'] = teamFile
    process.env['EVENTWATCH_DB'] = deskDb
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173'
    process.env['XDG_CONFIG_HOME'] = join(dir, 'config')
    const loginItem = autostartFile(process.env)

    resetFakeElectron()
    app.getPath.mockImplementation((name: string) => join(dir, 'desk', name))
    startDesktop({ platform: 'linux' })
    await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1), { timeout: 20_000 })
    expect(await fromWindow('getIdentity')).toEqual({ ok: true, value: { name: 'alice', role: 'operator', team: true } })

    // At start: the desk's own choice, not the server's.
    await vi.waitFor(() => expect(existsSync(loginItem)).toBe(true), { timeout: 10_000 })
    expect(await fromWindow<AppSettings>('getSettings')).toMatchObject({ ok: true, value: { desktop: { startAtLogin: true } } })

    // Changed from the desk's window (its operator is this machine's user): saved on the desk.
    expect(await fromWindow<AppSettings>('saveSettings', { desktop: { startAtLogin: false } })).toMatchObject({
      ok: true,
      value: { desktop: { startAtLogin: false } }
    })
    await vi.waitFor(() => expect(existsSync(loginItem)).toBe(false))
    expect(desktopPushed().at(-1)).toBe(false)

    // The server's administrator starts the server at login: the desk is pushed the server's
    // settings, with its own start at login in them, and its login item stays as it chose.
    await value(server, 'saveSettings', { desktop: { startAtLogin: true } })
    await vi.waitFor(() => expect(desktopPushed().length).toBeGreaterThanOrEqual(2), { timeout: 10_000 })
    expect(desktopPushed()).not.toContain(true)
    expect(existsSync(loginItem)).toBe(false)
    expect((await value<AppSettings>(server, 'getSettings')).desktop.startAtLogin).toBe(true)

    // The desk's choice is in its own cache, where it will be if it leaves the team.
    app.emit('before-quit', fakeEvent({}))
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalled(), { timeout: 10_000 })
    const after = openDatabase(deskDb)
    expect(getDesktopSettings(after)).toEqual({ startAtLogin: false })
    after.close()
  }, 60_000)
})
