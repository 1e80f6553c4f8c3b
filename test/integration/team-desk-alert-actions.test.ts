// A team desk acts on an alert from its notification (issue 27): a fake 'electron' (no Electron
// binary runs here), the real desktop wiring, and a real team server over HTTPS on loopback.
// The notification's Acknowledge and Snooze 30 min go to the server as the desk's signed-in user
// (alice), not as this machine's account: the server's alert and its audit name her. The body
// names the server's page for the session, which a teammate can open too.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'

vi.mock('electron', () => import('../support/fake-electron'))
import { app, BrowserWindow, fakeEvent, Notification, resetFakeElectron } from '../support/fake-electron'
import { startDesktop } from '../../src/main/desktop/app'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import { osKeychain } from '../../src/main/core/secrets/keychain'
import { openDatabase } from '../../src/main/core/store/db'
import { getAlertRules, setAlertRules } from '../../src/main/core/store/settings'
import { teamTokenAccount } from '../../src/main/core/team/team-config'
import type { WebHost } from '../../src/main/web/server'
import type { Alert, AlertsPage } from '../../src/shared/alerts'
import { sessionLink } from '../../src/shared/session-link'
import type { AuditEntry } from '../../src/shared/team'
import { value } from '../support/app-core'
import { tempDirs } from '../support/temp-dirs'
import { addUser, startTeamHost, stubRenderer, throwawayCertificate } from '../support/team-server'

const tempDir = tempDirs('eventwatch-team-desk-actions-')
const dir = tempDir()
const dbFile = join(dir, 'server.db')
const tls = throwawayCertificate(dir)
const rendererDir = stubRenderer(dir)

let server: { core: AppCore; host: WebHost } | undefined
let account: string | undefined
afterAll(async () => {
  app.emit('before-quit', fakeEvent({}))
  await server?.host.close()
  await server?.core.close()
  if (account) await osKeychain().remove(account).catch(() => false)
  delete process.env['EVENTWATCH_TEAM_FILE']
  delete process.env['ELECTRON_RENDERER_URL']
})

/** The server's alert as it keeps it. */
async function serverAlert(core: AppCore, id: number): Promise<Alert> {
  return (await value<AlertsPage>(core, 'listAlerts', {})).alerts.find((a) => a.id === id)!
}

describe('a team desk acting from a notification', () => {
  it("acknowledges and snoozes the server's alert as the signed-in user", async () => {
    // Only the reliability rule: the demo's incident fires one alert, announced on its own.
    const db = openDatabase(dbFile)
    const rules = getAlertRules(db)
    setAlertRules(db, {
      reliabilityFalling: { ...rules.reliabilityFalling, enabled: false },
      viewersDropping: { ...rules.viewersDropping, enabled: false },
      siteReliability: { ...rules.siteReliability, enabled: false }
    })
    db.close()
    const alice = await addUser(dbFile, 'alice', 'operator')
    // The incident comes once the desk is listening.
    const core = await startAppCore({ db: dbFile, cadences: { discoveryMs: 1000, detailMs: 1000, viewersMs: 60_000 }, demoIncidentAfterSeconds: 6 })
    const host = await startTeamHost(core, tls, rendererDir)
    server = { core, host }

    const teamFile = join(dir, 'team-server.json')
    writeFileSync(teamFile, JSON.stringify({ url: host.origin, pinnedSha256: tls.fingerprint, user: 'alice' }))
    account = teamTokenAccount(host.origin)
    await osKeychain().save(account, alice)
    process.env['EVENTWATCH_TEAM_FILE'] = teamFile
    process.env['ELECTRON_RENDERER_URL'] = 'http://localhost:5173'
    resetFakeElectron()
    app.getPath.mockImplementation((name: string) => join(dir, 'desk', name))
    startDesktop({ platform: 'darwin' })
    await vi.waitFor(() => expect(BrowserWindow.instances).toHaveLength(1), { timeout: 20_000 })

    // The alert fires on the server; the desk announces it with its two buttons.
    const withButtons = () => Notification.instances.find((n) => Array.isArray(n.options['actions']))
    await vi.waitFor(() => expect(withButtons()).toBeDefined(), { timeout: 40_000, interval: 200 })
    const notification = withButtons()!
    const page = await value<AlertsPage>(core, 'listAlerts', {})
    const fired = page.alerts.find((a) => a.state === 'firing' && notification.options['title'].endsWith(a.eventName ?? '\u0000'))!
    expect(fired).toBeDefined()
    expect(notification.options['body']).toContain(
      sessionLink({ kind: 'server', origin: host.origin }, { connectionId: fired.connectionId, eventSessionId: fired.eventSessionId! })
    )

    notification.emit('action', { actionIndex: 0, selectionIndex: -1 }, 0, -1)
    await vi.waitFor(async () => expect((await serverAlert(core, fired.id)).state).toBe('acknowledged'), { timeout: 10_000 })
    expect((await serverAlert(core, fired.id)).transitions.at(-1)).toMatchObject({ state: 'acknowledged', by: 'alice' })

    const before = Date.now()
    notification.emit('action', { actionIndex: 1, selectionIndex: -1 }, 1, -1)
    await vi.waitFor(async () => expect((await serverAlert(core, fired.id)).state).toBe('snoozed'), { timeout: 10_000 })
    const snoozed = await serverAlert(core, fired.id)
    expect(snoozed.transitions.at(-1)).toMatchObject({ state: 'snoozed', by: 'alice' })
    const until = Date.parse(snoozed.snoozedUntil!)
    expect(until).toBeGreaterThanOrEqual(before + 30 * 60_000)
    expect(until).toBeLessThanOrEqual(Date.now() + 30 * 60_000)

    // The server's audit names alice for both, through the same requests the window makes.
    const audit = await value<AuditEntry[]>(core, 'listAudit', {})
    const mine = audit.filter((e) => e.action === 'acknowledgeAlert' || e.action === 'snoozeAlert')
    expect(mine.map((e) => [e.action, e.actor])).toEqual([
      ['snoozeAlert', 'alice'],
      ['acknowledgeAlert', 'alice']
    ])
  }, 120_000)
})
