// `eventwatch report` (issue 14): a session's post-event report from a cache filled by a real
// `sync --once` against the simulator over loopback, as HTML and as JSON with the same figures.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SessionReport } from '../../src/main/core/app/session-report'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { CLI_BIN, cliEnv, homeEnv, ROOT, simulatorFlags } from '../support/cli'

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

  it('prints one self-contained HTML file with the same peak, and nothing to load', async () => {
    const { eventSessionId } = await endedSession()
    const json = JSON.parse((await cli(['report', '--db', db, '--session', eventSessionId, '--format', 'json'])).stdout) as SessionReport
    const { stdout: html } = await cli(['report', '--db', db, '--session', eventSessionId])
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain(`default-src 'none'`)
    expect(html).toContain(`<div class="value">${json.audience.peakViewers!.toLocaleString('en-US')}</div>`)
    for (const tag of html.match(/<[a-z][^>]*>/gi) ?? []) expect(tag).not.toMatch(/\s(src|href)\s*=/i)
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
  })
})
