// Running unattended (issue 15), with the recording fake of electron: start at login (an XDG
// autostart entry on Linux, the OS login item elsewhere) and starting in the tray with no
// window; the main process's log file and its rotation; every request through net.fetch.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../../support/fake-electron'))
const start = vi.hoisted(() => ({ startAppCore: vi.fn() }))
vi.mock('../../../src/main/core/app/start', () => start)

import { app, BrowserWindow, fakeCore, net, resetDesktop, Tray } from '../../support/fake-electron'
import { startDesktop } from '../../../src/main/desktop/app'
import { applyStartAtLogin, autostartFile } from '../../../src/main/desktop/login-item'
import { startMainLog } from '../../../src/main/desktop/main-log'
import { defaultFetch, setDefaultFetch } from '../../../src/main/core/net/connection-fetch'
import { forgetSecrets, rememberSecret } from '../../../src/main/core/net/redact'
import { DEFAULT_DESKTOP } from '../../../src/shared/settings'

let dir = ''
let core: ReturnType<typeof fakeCore>
const argv = process.argv
const configHome = process.env['XDG_CONFIG_HOME']
beforeEach(() => {
  core = resetDesktop(start.startAppCore, fakeCore)
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-unattended-'))
  process.env['XDG_CONFIG_HOME'] = join(dir, 'config')
  app.getPath.mockImplementation((name: string) => join(dir, name))
})
afterEach(() => {
  process.argv = argv
  if (configHome === undefined) delete process.env['XDG_CONFIG_HOME']
  else process.env['XDG_CONFIG_HOME'] = configHome
  setDefaultFetch(undefined)
  rmSync(dir, { recursive: true, force: true })
})

/** The fake core answers getSettings with these desktop settings. */
function settingsWith(startAtLogin: boolean): void {
  core.dispatch.mockImplementation(async (name: unknown) =>
    name === 'getSettings' ? { ok: true, value: { desktop: { ...DEFAULT_DESKTOP, startAtLogin } } } : { ok: true, value: 'result' }
  )
}

describe('start at login', () => {
  it('on Linux writes an XDG autostart entry starting the app hidden, and removes it', () => {
    const env = { XDG_CONFIG_HOME: join(dir, 'cfg') }
    applyStartAtLogin(true, { platform: 'linux', executable: '/opt/My "Apps"/eventwatch', env })
    const file = autostartFile(env)
    expect(file).toBe(join(dir, 'cfg', 'autostart', 'eventwatch.desktop'))
    const entry = readFileSync(file, 'utf8')
    expect(entry).toMatch(/^\[Desktop Entry\]\nType=Application\nName=Eventwatch\n/)
    expect(entry).toContain('Exec="/opt/My \\"Apps\\"/eventwatch" --hidden\n')
    applyStartAtLogin(false, { platform: 'linux', executable: '/opt/x', env })
    expect(existsSync(file)).toBe(false)
    expect(app.setLoginItemSettings).not.toHaveBeenCalled()
  })

  it('on Windows and macOS sets the OS login item, with --hidden', () => {
    applyStartAtLogin(true, { platform: 'win32', executable: 'C:\\Eventwatch.exe', env: {} })
    expect(app.setLoginItemSettings).toHaveBeenLastCalledWith({ openAtLogin: true, args: ['--hidden'] })
    applyStartAtLogin(false, { platform: 'darwin', executable: '/Applications/Eventwatch.app', env: {} })
    expect(app.setLoginItemSettings).toHaveBeenLastCalledWith({ openAtLogin: false, args: [] })
  })

  it('follows the setting: applied at start, and again when it changes', async () => {
    settingsWith(true)
    startDesktop({ platform: 'linux' })
    const file = autostartFile(process.env)
    await vi.waitFor(() => expect(existsSync(file)).toBe(true))
    expect(readFileSync(file, 'utf8')).toContain(`Exec="${process.execPath}" --hidden`)
    core.push('settingsChanged', { desktop: { startAtLogin: false } })
    expect(existsSync(file)).toBe(false)
  })

  it('started with --hidden, it watches from the tray and opens no window until asked', async () => {
    process.argv = [...argv, '--hidden']
    startDesktop({ platform: 'linux' })
    await vi.waitFor(() => expect(Tray.instances).toHaveLength(1))
    await vi.waitFor(() => expect(core.onEvent).toHaveBeenCalled())
    expect(BrowserWindow.instances).toHaveLength(0)
    app.emit('second-instance')
    expect(BrowserWindow.instances).toHaveLength(1)
  })

  it('started normally, it opens its window', async () => {
    startDesktop({ platform: 'linux' })
    await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1))
  })
})

describe('the network', () => {
  it('sends the core\'s requests through Electron\'s net.fetch (system proxy, PAC, OS certificates)', async () => {
    startDesktop({ platform: 'linux' })
    await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1))
    net.fetch.mockResolvedValueOnce(new Response('{}', { headers: { 'content-type': 'application/json' } }))
    const response = await defaultFetch()('https://reporting.example/v1/events/sessions', { method: 'GET' })
    expect(await response.json()).toEqual({})
    expect(net.fetch).toHaveBeenCalledWith('https://reporting.example/v1/events/sessions', { method: 'GET' })
  })
})

describe('the main process log', () => {
  it('keeps what the main process says, with times, secrets redacted', async () => {
    const log = startMainLog(join(dir, 'logs'), { now: () => new Date('2026-11-25T10:00:00Z') })
    rememberSecret('hunter2-secret-value')
    const quiet = vi.spyOn(process.stderr, 'write').mockImplementation(() => true)
    try {
      console.error('eventwatch: the tray failed', new Error('no status notifier'))
      console.warn('token hunter2-secret-value refused')
    } finally {
      quiet.mockRestore()
      forgetSecrets()
    }
    await log.close()
    const text = readFileSync(join(dir, 'logs', 'main.log'), 'utf8')
    expect(text).toMatch(/^2026-11-25T10:00:00\.000Z ERROR eventwatch: the tray failed Error: no status notifier/)
    expect(text).toContain('2026-11-25T10:00:00.000Z WARN token [redacted] refused\n')
    expect(text).not.toContain('hunter2')
  })

  it('rotates by size and keeps a bounded number of old files', async () => {
    const logs = join(dir, 'logs')
    const log = startMainLog(logs, { size: '1K', keep: 2 })
    for (let i = 0; i < 60; i++) {
      log.write('info', `line ${i} ${'x'.repeat(100)}`)
      await new Promise((resolve) => setTimeout(resolve, 2))
    }
    await log.close()
    const files = readdirSync(logs).sort()
    expect(files).toEqual(['main.1.log', 'main.2.log', 'main.log'])
    // The newest lines are in main.log or main.1.log; the oldest are gone.
    const all = files.map((f) => readFileSync(join(logs, f), 'utf8')).join('')
    expect(all).toContain('line 59 ')
    expect(all).not.toContain('line 0 ')
  })

  it('is started by the desktop in its logs folder', async () => {
    startDesktop({ platform: 'linux' })
    await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1))
    await vi.waitFor(() => expect(readFileSync(join(dir, 'logs', 'main.log'), 'utf8')).toMatch(/INFO Eventwatch 0\.0\.0-test starting/))
  })
})
