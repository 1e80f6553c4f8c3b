// `eventwatch report` (issue 14): a session's post-event report from a cache filled by a real
// `sync --once` against the simulator over loopback, as HTML and as JSON with the same figures.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SessionReport } from '../../src/main/core/report/session-report-shape'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { acknowledgeAlert, listAlerts } from '../../src/main/core/store/alerts'
import { openDatabase } from '../../src/main/core/store/db'
import { CLI_BIN, cliEnv, homeEnv, ROOT, simulatorFlags } from '../support/cli'
import { concurrentPeak } from '../support/concurrent-peak'
import { parseDeskLink } from '../../src/shared/session-link'

const run = promisify(execFile)
let sim: RunningSimulator
let home: string
let db: string

const cli = (args: string[]) =>
  run(process.execPath, [CLI_BIN, ...args], { cwd: ROOT, env: cliEnv({ ...homeEnv(home), EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret }), maxBuffer: 64 * 1024 * 1024 })

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-report-'))
  db = join(home, 'cache.db')
  sim = await startSimulator({ liveSessions: 1, endedSessions: 3, viewersPerSession: 60, churnSessions: false, seed: 11 })
  await cli(['sync', '--once', '--db', db, ...simulatorFlags(sim)])
}, 60_000)

afterAll(async () => {
  await sim?.close()
  rmSync(home, { recursive: true, force: true })
})

/** An ended session of the cache, with its viewer list. */
async function endedSession(): Promise<{ eventSessionId: string; viewers: number }> {
  const { stdout } = await cli(['export', 'sessions', '--db', db])
  const ended = (JSON.parse(stdout) as { eventSessionId: string; hasEnded: boolean }[]).find((s) => s.hasEnded)!
  const viewers = JSON.parse((await cli(['export', 'viewers', '--db', db, '--session', ended.eventSessionId])).stdout) as unknown[]
  return { eventSessionId: ended.eventSessionId, viewers: viewers.length }
}

describe('eventwatch report', () => {
  it('prints JSON with the reconstructed audience, the breakdowns and a timeline from the viewer list', async () => {
    const { eventSessionId, viewers } = await endedSession()
    const report = JSON.parse((await cli(['report', '--db', db, '--session', eventSessionId, '--format', 'json'])).stdout) as SessionReport
    expect(report.session).toMatchObject({ eventSessionId, hasEnded: true, endedAtSource: 'viewers' })
    expect(report.audience).toMatchObject({ viewers, peakSource: 'viewers' })
    expect(report.audience.peakViewers).toBeGreaterThan(0)
    expect(report.audience.peakViewers).toBeLessThanOrEqual(viewers)
    // Never watched live: its timeline is its viewers', and it peaks where the audience does.
    expect(report.timeline.source).toBe('viewers')
    expect(Math.max(...report.timeline.points.map((p) => p.viewers))).toBe(report.audience.peakViewers)
    expect(report.whereItHurt.site.reduce((n, g) => n + g.viewers, 0)).toBeLessThanOrEqual(viewers)
    expect(report.whereItHurt.deviceType.length).toBeGreaterThan(0)
  })

  it('prints one self-contained HTML file with the same peak, and nothing to load; its one address is the desk link to the session', async () => {
    const { eventSessionId } = await endedSession()
    const json = JSON.parse((await cli(['report', '--db', db, '--session', eventSessionId, '--format', 'json'])).stdout) as SessionReport
    const { stdout: html } = await cli(['report', '--db', db, '--session', eventSessionId])
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain(`default-src 'none'`)
    expect(html).toContain(`<div class="value">${json.audience.peakViewers!.toLocaleString('en-US')}</div>`)
    for (const tag of html.match(/<[a-z][^>]*>/gi) ?? []) {
      if (tag.startsWith('<a ')) expect(parseDeskLink(/^<a href="([^"]*)">$/.exec(tag)?.[1] ?? '')).toMatchObject({ eventSessionId })
      else expect(tag).not.toMatch(/\s(src|href)\s*=/i)
    }
    expect(parseDeskLink(json.link!)).toMatchObject({ eventSessionId })
  })

  it('names a session it does not hold, in one line, and exits non-zero', async () => {
    const failure = await cli(['report', '--db', db, '--session', 'no-such-session']).catch((error: { code: number; stderr: string }) => error)
    expect(failure).toMatchObject({ code: 2 }) // a usage error, as export's
    expect((failure as { stderr: string }).stderr).toMatch(/^eventwatch: no session "no-such-session" in the cache at .+\n$/)
  })

  it('names a site with `sites set`, lists it, shows it in the report, and forgets it with `sites remove`', async () => {
    const { eventSessionId } = await endedSession()
    const before = JSON.parse((await cli(['report', '--db', db, '--session', eventSessionId, '--format', 'json'])).stdout) as SessionReport
    const code = before.whereItHurt.site.find((g) => g.key !== null)!.key!
    expect((await cli(['sites', 'set', code, 'Leeds office', '--db', db])).stdout).toBe(`site ${code} is named "Leeds office"\n`)
    expect((await cli(['sites', 'list', '--db', db])).stdout).toBe(`${code}\tLeeds office\n`)
    const after = JSON.parse((await cli(['report', '--db', db, '--session', eventSessionId, '--format', 'json'])).stdout) as SessionReport
    expect(after.whereItHurt.site.find((g) => g.key === code)).toMatchObject({ name: 'Leeds office' })
    expect((await cli(['report', '--db', db, '--session', eventSessionId])).stdout).toContain(`<td>${code} · Leeds office</td>`)
    await cli(['sites', 'remove', code, '--db', db])
    expect((await cli(['sites', 'list', '--db', db])).stdout).toBe('No site is named yet: eventwatch sites set CODE NAME\n')
    const refused = await cli(['sites', 'set', 'north', 'X', '--db', db]).catch((error: { code: number; stderr: string }) => error)
    expect(refused).toMatchObject({ code: 2, stderr: 'eventwatch: a site code is a number, as the service gives it (got "north").\n' })
  }, 60_000) // nine runs of the command
})

describe('eventwatch report, for a manager (issue 24)', () => {
  let tenant: RunningSimulator
  let dir: string
  let cache: string
  const run2 = (args: string[]) =>
    run(process.execPath, [CLI_BIN, ...args], { cwd: ROOT, env: cliEnv({ ...homeEnv(dir), EVENTWATCH_CLIENT_SECRET: tenant.credentials.clientSecret }), maxBuffer: 64 * 1024 * 1024 })
  const reportOf = async (id: string) => ({
    json: JSON.parse((await run2(['report', '--db', cache, '--session', id, '--format', 'json'])).stdout) as SessionReport,
    html: (await run2(['report', '--db', cache, '--session', id])).stdout
  })

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'eventwatch-report-manager-'))
    cache = join(dir, 'cache.db')
    tenant = await startSimulator({ liveSessions: 1, endedSessions: 1, viewersPerSession: 600, churnSessions: false, randomIncidents: false, seed: 5 })
    // A service that, once a session is over, counts everyone who watched it; and a few viewers
    // whose times cannot be used: two without a start, one whose end is before its start.
    const ended = tenant.world.sessions.find((s) => s.hasEnded)!
    tenant.world.reportCountAfterEnd(ended.eventSessionId, ended.viewers.length)
    tenant.world.spoilViewerTimes(ended.eventSessionId, { withoutStart: 2, endBeforeStart: 1 })
    await run2(['sync', '--once', '--db', cache, ...simulatorFlags(tenant)])
  }, 60_000)

  afterAll(async () => {
    await tenant?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('gives a session first seen after its end the peak of its viewers\' times, not the count after the end "from polls"', async () => {
    const ended = tenant.world.sessions.find((s) => s.hasEnded)!
    const { json, html } = await reportOf(ended.eventSessionId)
    const peak = concurrentPeak(ended.viewers)
    expect(peak).toBeLessThan(ended.viewers.length) // the count after the end is no concurrent peak
    expect(json.audience).toMatchObject({ peakSource: 'viewers', peakViewers: peak, peakUntimed: 3, viewers: ended.viewers.length })
    expect(html).toContain(`<div class="value">${peak.toLocaleString('en-US')}</div>`)
    expect(html).toContain('from the viewers&#39; start and end times')
    expect(html).toContain('3 viewers without usable times not counted')
    expect(html).not.toMatch(/at a poll/)
  })

  it('says a live session is still live, as of its last poll, and never "ended still live"', async () => {
    const live = tenant.world.sessions.find((s) => !s.hasEnded)!
    const { json, html } = await reportOf(live.eventSessionId)
    expect(json.session.hasEnded).toBe(false)
    expect(html).toContain(`● still live as of ${json.session.lastPolledAt.slice(0, 16).replace('T', ' ')} UTC</span> (its last poll)`)
    expect(html).not.toMatch(/ended still live/)
  })

  it('lists who acknowledged each alert, when, and their note, escaped; an alert still open reads so', async () => {
    const live = tenant.world.sessions.find((s) => !s.hasEnded)!
    tenant.faults.incident(live.eventSessionId, { drop: 30, minutes: 60 })
    await run2(['sync', '--once', '--db', cache, ...simulatorFlags(tenant)])
    const db = openDatabase(cache)
    try {
      const falling = listAlerts(db, { eventSessionId: live.eventSessionId }, Date.now()).find((a) => a.rule === 'reliability-falling')!
      expect(falling.state).toBe('firing')
      acknowledgeAlert(db, falling.id, 'ECDN peer <b>down</b> in Leeds', Date.parse('2026-11-20T10:11:00Z'), 'alice')
    } finally {
      db.close()
    }
    const { json, html } = await reportOf(live.eventSessionId)
    expect(json.alerts.find((a) => a.rule === 'reliability-falling')?.acknowledgements).toEqual([
      { by: 'alice', at: '2026-11-20T10:11:00.000Z', note: 'ECDN peer <b>down</b> in Leeds' }
    ])
    expect(html).toContain('<th>Acknowledged</th>')
    expect(html).toContain('<div>alice at 10:11 UTC: “ECDN peer &lt;b&gt;down&lt;/b&gt; in Leeds”</div>')
    expect(html).toContain('<td>Still acknowledged</td>')
    // Every alert's line leads back to the session (issue 27): the desk's link, in both forms.
    for (const alert of json.alerts) expect(parseDeskLink(alert.link!)).toMatchObject({ eventSessionId: live.eventSessionId })
    expect(html).toContain(`<td><a href="${json.alerts[0]!.link!}">`)
  })
})
