// The team server (issue 17) over real HTTPS on loopback with a throwaway certificate: the real
// core on a real SQLite file with the demo incident, users made as the CLI makes them. Only users
// get in; a viewer reads everything and changes nothing; alice's acknowledgement reaches bob's
// open event stream as alice's, and the audit list names her.
import { readFileSync } from 'node:fs'
import { request as httpsRequest } from 'node:https'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppCore } from '../../src/main/core/app/types'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import type { Alert, AlertsChanged, AlertsPage } from '../../src/shared/alerts'
import type { Result } from '../../src/shared/result'
import type { AuditEntry, Identity } from '../../src/shared/team'
import { Cleanups, Pushes, startCore } from '../support/app-core'
import { tempDirs } from '../support/temp-dirs'
import { addUser, openStream, removeUser, startTeamHost, stubRenderer, throwawayCertificate, trustingFetch } from '../support/team-server'

const cleanups = new Cleanups()
afterAll(() => cleanups.runAll())
const tempDir = tempDirs('eventwatch-team-')

let core: AppCore
let host: WebHost
let fetcher: ReturnType<typeof trustingFetch>
let rendererDir: string
let tls: ReturnType<typeof throwawayCertificate>
const tokens: Record<'alice' | 'bob' | 'val', string> = { alice: '', bob: '', val: '' }
let firing: Alert
let dbFile: string

const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` })

async function ask<T>(name: string, args: unknown, headers: Record<string, string>): Promise<{ status: number; body: Result<T> }> {
  const response = await fetcher(`${host.origin}/api/request/${name}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(args)
  })
  return { status: response.status, body: (await response.json()) as Result<T> }
}

beforeAll(async () => {
  const dir = tempDir()
  dbFile = join(dir, 'team.db')
  tls = throwawayCertificate(dir)
  rendererDir = stubRenderer(dir)
  core = await startCore(cleanups, {
    db: dbFile,
    cadences: { discoveryMs: 1000, detailMs: 1000, viewersMs: 60_000 },
    demoIncidentAfterSeconds: 0
  })
  const pushes = new Pushes(core)
  const fired = await pushes.next('alertsChanged', (p) => p.fired.some((a) => a.rule === 'reliability-below'), 30_000)
  firing = fired.fired.find((a) => a.rule === 'reliability-below')!
  tokens.alice = await addUser(dbFile, 'alice', 'operator')
  tokens.bob = await addUser(dbFile, 'bob', 'operator')
  tokens.val = await addUser(dbFile, 'val', 'viewer')
  host = await startTeamHost(core, tls, rendererDir)
  cleanups.add(() => host.close())
  fetcher = trustingFetch(tls.caFile)
}, 60_000)

describe('team server', () => {
  it('refuses to listen beyond loopback without TLS, before anything listens', async () => {
    await expect(startWebHost({ core, rendererDir, port: 0, team: { host: '0.0.0.0' } })).rejects.toThrow(
      /refusing to listen on 0\.0\.0\.0 without TLS.*--tls-cert FILE --tls-key FILE/
    )
    await expect(
      startWebHost({ core, rendererDir, port: 0, team: { host: '127.0.0.1', tls: { cert: tls.cert, key: tls.cert } } })
    ).rejects.toThrow(/private key/)
  })

  it('lets in no request without a token, with a wrong one, or from another Host or Origin', async () => {
    expect(host.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
    expect(host.token).toBe('')
    const none = await ask('listAlerts', {}, {})
    expect(none.status).toBe(401)
    expect(none.body).toMatchObject({ ok: false, error: { code: 'unauthorized' } })
    const wrong = await ask('listAlerts', {}, bearer('ewu_not-a-real-token'))
    expect(wrong.status).toBe(401)
    // A page without a session goes to the sign-in form.
    const page = await fetcher(`${host.origin}/`, { redirect: 'manual' })
    expect(page.status).toBe(303)
    expect(page.headers.get('location')).toBe('/signin')
    const foreign = await ask('listAlerts', {}, { ...bearer(tokens.alice), Origin: 'https://evil.example' })
    expect(foreign.status).toBe(403)
    // fetch will not send another Host: a raw request does, as a rebinding page's would arrive.
    const rebound = await new Promise<number>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port: host.address.port, path: '/api/request/listAlerts', method: 'POST', ca: readFileSync(tls.caFile), servername: 'noc.eventwatch.test', headers: { ...bearer(tokens.alice), Host: 'evil.example' } },
        (res) => {
          res.resume()
          resolve(res.statusCode ?? 0)
        }
      )
      req.on('error', reject)
      req.end('{}')
    })
    expect(rebound).toBe(421)
  })

  it('lets a viewer read everything and change nothing', async () => {
    const identity = await ask<Identity>('getIdentity', {}, bearer(tokens.val))
    expect(identity.body).toEqual({ ok: true, value: { name: 'val', role: 'viewer', team: true } })
    const reads: [string, unknown][] = [
      ['getStatus', {}], ['listLiveSessions', {}], ['listAlerts', {}], ['getSettings', {}], ['listMaintenance', {}],
      ['pastSessions', { sort: 'started' }], ['listAudit', {}], ['listDiagnostics', {}], ['listConnections', {}], ['listSiteNames', {}]
    ]
    for (const [name, args] of reads) {
      const read = await ask(name, args, bearer(tokens.val))
      expect(read.body, name).toMatchObject({ ok: true })
    }
    const sessions = await ask<{ sessions: { connectionId: string; eventSessionId: string }[] }>('listLiveSessions', {}, bearer(tokens.val))
    expect(sessions.body.ok && sessions.body.value.sessions.length).toBeGreaterThan(0)

    const ack = await ask('acknowledgeAlert', { id: firing.id }, bearer(tokens.val))
    expect(ack.body).toMatchObject({ ok: false, error: { code: 'forbidden', message: 'Acknowledging an alert needs the operator role; you are signed in as a viewer.' } })
    const levels = await ask('saveSettings', { thresholds: { warning: 80, critical: 70 } }, bearer(tokens.val))
    expect(levels.body).toMatchObject({
      ok: false,
      error: { code: 'forbidden', message: 'Saving the reliability level settings needs the operator role; you are signed in as a viewer.' }
    })
    // Nothing moved.
    const after = await ask<AlertsPage>('listAlerts', {}, bearer(tokens.val))
    expect(after.body.ok && after.body.value.alerts.find((a) => a.id === firing.id)?.state).toBe('firing')
  })

  it('keeps connections, webhooks and global settings for the administrator, alert settings for operators', async () => {
    const connection = await ask('deleteConnection', { id: 'demo' }, bearer(tokens.alice))
    expect(connection.body).toMatchObject({ ok: false, error: { code: 'forbidden', message: expect.stringMatching(/administrator/) } })
    expect((await ask('listWebhooks', {}, bearer(tokens.alice))).body).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    // The units are the server's (her own time zone, theme and sound are hers: team-display.test.ts).
    expect((await ask('saveSettings', { display: { trafficUnit: 'bytes' } }, bearer(tokens.alice))).body).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    expect((await ask('saveSettings', { retention: { auditDays: 30 }, thresholds: { warning: 96, critical: 90 } }, bearer(tokens.alice))).body).toMatchObject({
      ok: false,
      error: { code: 'forbidden' }
    })
    const levels = await ask<{ thresholds: { warning: number } }>('saveSettings', { thresholds: { warning: 96, critical: 90 } }, bearer(tokens.alice))
    expect(levels.body).toMatchObject({ ok: true, value: { thresholds: { warning: 96, critical: 90 } } })
  })

  it("pushes alice's acknowledgement to bob's open stream as hers, and the audit list names her", async () => {
    // Alice signs in with her browser: a form post, then an HttpOnly session cookie.
    const signIn = await fetcher(`${host.origin}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: host.origin },
      body: new URLSearchParams({ token: tokens.alice }).toString()
    })
    expect(signIn.status).toBe(303)
    const cookie = signIn.headers.get('set-cookie') ?? ''
    expect(cookie).toMatch(/^__Host-eventwatch=[\w-]+; HttpOnly; SameSite=Strict; Path=\/; Max-Age=\d+; Secure$/)
    expect(cookie).not.toContain(tokens.alice)
    const session = { Cookie: cookie.split(';')[0]! }
    expect((await ask<Identity>('getIdentity', {}, session)).body).toEqual({ ok: true, value: { name: 'alice', role: 'operator', team: true } })

    const bobs = await openStream(fetcher, `${host.origin}/api/events`, bearer(tokens.bob))
    cleanups.add(() => bobs.close())
    const acked = await ask<AlertsPage>('acknowledgeAlert', { id: firing.id, note: 'on it' }, session)
    expect(acked.body.ok).toBe(true)

    await expect
      .poll(() => bobs.events.some((e) => e.event === 'alertsChanged' && (e.data as AlertsChanged).changed.some((a) => a.id === firing.id)), { timeout: 10_000 })
      .toBe(true)
    const push = bobs.events.find((e) => e.event === 'alertsChanged' && (e.data as AlertsChanged).changed.some((a) => a.id === firing.id))!
    const alert = (push.data as AlertsChanged).changed.find((a) => a.id === firing.id)!
    expect(alert.state).toBe('acknowledged')
    expect(alert.transitions.at(-1)).toMatchObject({ state: 'acknowledged', note: 'on it', by: 'alice' })

    // Bob reads it as alice's too, and the audit list says who did what.
    const bobsList = await ask<AlertsPage>('listAlerts', {}, bearer(tokens.bob))
    expect(bobsList.body.ok && bobsList.body.value.alerts.find((a) => a.id === firing.id)?.transitions.at(-1)?.by).toBe('alice')
    const audit = await ask<AuditEntry[]>('listAudit', {}, bearer(tokens.bob))
    expect(audit.body.ok && audit.body.value.map((e) => [e.actor, e.action, e.subject])).toEqual(
      expect.arrayContaining([
        ['alice', 'acknowledgeAlert', `alert ${firing.id}`],
        ['alice', 'saveSettings', null]
      ])
    )
    // Refused requests change nothing and leave no entry.
    expect(audit.body.ok && audit.body.value.filter((e) => e.actor === 'val')).toEqual([])

    // Signing out ends the session: the cookie lets nobody in afterwards.
    const out = await fetcher(`${host.origin}/signout`, { method: 'POST', redirect: 'manual', headers: { ...session, Origin: host.origin } })
    expect(out.status).toBe(303)
    expect((await ask('getIdentity', {}, session)).status).toBe(401)
  })

  it("ends an open event stream at its next heartbeat once its user is removed", async () => {
    const quick = await startTeamHost(core, tls, rendererDir, 0, 200)
    cleanups.add(() => quick.close())
    const carol = await addUser(dbFile, 'carol', 'viewer')
    const stream = await openStream(fetcher, `${quick.origin}/api/events`, bearer(carol))
    cleanups.add(() => stream.close())
    let ended = false
    void stream.ended.then(() => (ended = true))
    await new Promise((r) => setTimeout(r, 600))
    expect(ended).toBe(false) // heartbeats keep it open while carol may read
    await removeUser(dbFile, 'carol')
    // The server ends it: this resolves only when the stream closes.
    await stream.ended
    expect(ended).toBe(true)
  })
})
