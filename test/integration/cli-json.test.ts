// `--json` on every command that prints data (issue 27, part 4): each prints what docs/cli.md
// ("JSON output") says, under the documented field names, parsed here from real child processes
// on a real SQLite file filled from the simulator over loopback. The service's and people's text
// stays exact data in JSON — a hostile connection name comes back equal, its escape and bidi
// characters written as \u escapes, never as raw bytes — while the human lines stay plain.
// Before: sync, export's --json, report's --json, sites, backup, simulate, team show, the adds,
// rotate and the tests had no --json (commander: "unknown option '--json'", exit 2).
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { recordAudit } from '../../src/main/core/store/audit'
import { openDatabase } from '../../src/main/core/store/db'
import { homeEnv } from '../support/cli'
import { runCli, startCli } from '../support/cli-processes'
import { tempDirs } from '../support/temp-dirs'
import { webhookReceiver } from '../support/webhook-receiver'

const home = tempDirs('eventwatch-cli-json-')()
const db = join(home, 'cache.db')
let sim: RunningSimulator
let env: NodeJS.ProcessEnv

/** A connection name as anyone could type it: an escape sequence, a right-to-left override, quotes. */
const HOSTILE = 'Contoso \u001b[31mred\u202e "quoted" \\ end'
const ESC = '\u001b'

const cli = (...args: string[]) => runCli([...args, '--db', db], env)
async function json<T = Record<string, unknown>>(...args: string[]): Promise<T> {
  const result = await cli(...args, '--json')
  expect(result.code, `eventwatch ${args.join(' ')} --json: ${result.stderr}`).toBe(0)
  // Exact data, but no raw escape or override byte: JSON's own \u escapes carry them.
  for (const raw of [ESC, '\u202e']) expect(result.stdout, 'no raw escape or bidi control in JSON').not.toContain(raw)
  return JSON.parse(result.stdout) as T
}
const fields = (value: unknown): string[] => Object.keys(value as object).sort()

beforeAll(async () => {
  sim = await startSimulator({ liveSessions: 1, endedSessions: 2, viewersPerSession: 30, churnSessions: false, randomIncidents: false, seed: 7 })
  env = { ...homeEnv(home), EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret }
}, 60_000)

afterAll(async () => {
  await sim?.close()
})

describe('eventwatch … --json', () => {
  it('connections add, list and test print the connection and the steps; a hostile name comes back exact', async () => {
    const c = sim.credentials
    const flags = ['--base-url', sim.baseUrl, '--auth-url', sim.authUrl, '--platform-id', c.platformId, '--tenant-id', c.tenantId, '--client-id', c.clientId]
    const added = await json('connections', 'add', HOSTILE, ...flags)
    expect(added).toMatchObject({ name: HOSTILE, baseUrl: sim.baseUrl, enabled: true, secretStored: true, isDemo: false })
    expect(fields(added)).toEqual(expect.arrayContaining(['id', 'name', 'baseUrl', 'authUrl', 'platformId', 'tenantId', 'clientId', 'enabled', 'secretStored', 'reliabilityScale']))
    const listed = await json<{ name: string }[]>('connections', 'list')
    expect(listed.map((l) => l.name)).toContain(HOSTILE)
    // The human line is plain: no escape, no override.
    const human = await cli('connections', 'list')
    expect(human.stdout).not.toContain(ESC)
    expect(human.stdout).not.toContain('\u202e')

    const tested = await json<{ ok: boolean; steps: { step: string; ok: boolean; message: string }[] }>('connections', 'test', HOSTILE)
    expect(tested.ok).toBe(true)
    expect(tested.steps.map((s) => [s.step, s.ok])).toEqual([['secret', true], ['token', true], ['sessions', true]])
  }, 60_000)

  it('sync --once prints one JSON line per pass', async () => {
    const result = await cli('sync', '--once', '--connection', HOSTILE, '--json')
    expect(result.code, result.stderr).toBe(0)
    const lines = result.stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(1)
    const pass = JSON.parse(lines[0]!) as Record<string, unknown>
    expect(fields(pass)).toEqual(['at', 'connection', 'cutShort', 'listed', 'live', 'problems', 'skipped', 'snapshots', 'stopped', 'type', 'viewerLists', 'viewers'])
    expect(pass).toMatchObject({ type: 'pass', connection: { name: HOSTILE }, listed: 3, live: 1, problems: [], stopped: false })
    expect(result.stdout).not.toContain(ESC)
  }, 60_000)

  it('export takes --json as --format json, and refuses --json with --format csv', async () => {
    const sessions = await json<{ eventSessionId: string; hasEnded: boolean }[]>('export', 'sessions')
    expect(sessions).toHaveLength(3)
    expect((await cli('export', 'sessions', '--format', 'json')).stdout).toBe((await cli('export', 'sessions', '--json')).stdout)
    const ended = sessions.find((s) => s.hasEnded)!.eventSessionId
    expect((await json<{ viewerId: string }[]>('export', 'viewers', '--session', ended))[0]).toHaveProperty('viewerId')
    expect(Array.isArray(await json('export', 'snapshots', '--session', sessions.find((s) => !s.hasEnded)!.eventSessionId))).toBe(true)
    expect(Array.isArray(await json('export', 'alerts'))).toBe(true)

    const both = await cli('export', 'sessions', '--json', '--format', 'csv')
    expect(both).toMatchObject({ code: 2, stdout: '' })
    expect(both.stderr).toBe('eventwatch: --json is --format json: give one of --json and --format csv, not both.\n')
  }, 60_000)

  it('report takes --json as --format json, and writes --output FILE', async () => {
    const [session] = await json<{ eventSessionId: string; hasEnded: boolean }[]>('export', 'sessions')
    const report = await json('report', '--session', session!.eventSessionId)
    expect(fields(report)).toEqual(expect.arrayContaining(['generatedAt', 'session', 'audience']))
    expect(report).toMatchObject({ session: { eventSessionId: session!.eventSessionId, connectionName: HOSTILE } })

    const file = join(home, 'report.html')
    const written = await cli('report', '--session', session!.eventSessionId, '--output', file)
    expect(written).toMatchObject({ code: 0, stdout: '' })
    expect(readFileSync(file, 'utf8')).toMatch(/^<!doctype html>/)
  }, 60_000)

  it('sites list, webhooks add/list/test, maintenance add/list, users add/list/rotate and team show', async () => {
    expect((await cli('sites', 'set', '311', 'London HQ')).code).toBe(0)
    expect(await json('sites', 'list')).toEqual([{ code: 311, name: 'London HQ' }])

    const receiver = await webhookReceiver()
    try {
      const hook = await json('webhooks', 'add', 'Chat', '--url', receiver.url, '--format', 'json')
      expect(fields(hook)).toEqual(['failed', 'format', 'id', 'lastDeliveredAt', 'lastError', 'name', 'pending', 'signed', 'url'])
      expect(await json<unknown[]>('webhooks', 'list')).toEqual([hook])
      const tested = await json('webhooks', 'test', 'Chat')
      expect(fields(tested)).toEqual(['message', 'ok'])
      expect(tested.ok).toBe(true)
    } finally {
      await receiver.close()
    }

    const window = await json('maintenance', 'add', 'Patch night', '--connection', HOSTILE, '--from', '2030-03-23T22:00:00Z', '--to', '2030-03-23T23:00:00Z')
    expect(window).toMatchObject({ name: 'Patch night', connectionName: HOSTILE, repeat: 'none', inForce: false })
    expect(fields(window)).toEqual(expect.arrayContaining(['id', 'name', 'startsAt', 'endsAt', 'repeat', 'timeZone', 'connectionId', 'inForce']))
    expect(await json<unknown[]>('maintenance', 'list')).toEqual([window])

    const added = await json<{ user: Record<string, unknown>; token: string }>('users', 'add', 'val', '--role', 'viewer')
    expect(fields(added)).toEqual(['token', 'user'])
    expect(fields(added.user)).toEqual(['createdAt', 'id', 'lastSeenAt', 'name', 'role', 'rotatedAt'])
    const rotated = await json<{ name: string; token: string }>('users', 'rotate', 'val')
    expect(rotated.name).toBe('val')
    expect(rotated.token).not.toBe(added.token)
    expect((await json<{ name: string }[]>('users', 'list')).map((u) => u.name)).toEqual(['val'])

    const team = await runCli(['team', 'show', '--json'], env)
    expect(team).toMatchObject({ code: 0, stdout: 'null\n' })
  }, 120_000)

  it('backup prints the copy made', async () => {
    const file = join(home, 'backup.db')
    const copy = await json('backup', file)
    expect(copy).toEqual({ from: db, file, bytes: expect.any(Number) as number })
    expect(existsSync(file)).toBe(true)
  }, 60_000)

  it('audit streams its entries a page at a time: past the contract’s page of 1,000, newest first, none twice', async () => {
    // 1,200 more entries, written by SQLite as the dispatch would.
    const handle = openDatabase(db)
    try {
      for (let i = 0; i < 1200; i++) recordAudit(handle, { actor: 'seed', action: 'setSetting', subject: `entry ${i}`, detail: null }, Date.now())
    } finally {
      handle.close()
    }
    const entries = await json<{ id: number }[]>('audit', '--limit', '1100')
    expect(entries).toHaveLength(1100)
    expect(fields(entries[0])).toEqual(['action', 'actor', 'at', 'detail', 'id', 'subject'])
    expect(entries.every((e, i) => i === 0 || e.id < entries[i - 1]!.id)).toBe(true)
    const all = await json<{ id: number }[]>('audit', '--limit', '100000')
    expect(all.length).toBeGreaterThan(1200)
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length)
    const lines = (await cli('audit', '--limit', '1100')).stdout.trimEnd().split('\n')
    expect(lines).toHaveLength(1100)
  }, 60_000)

  it('simulate prints one line with its URLs and demo credentials, then runs', async () => {
    const simulator = startCli(['simulate', '--port', '0', '--json'], env)
    try {
      const [line] = await simulator.waitFor(/^\{.*\}\n/)
      const said = JSON.parse(line) as Record<string, unknown>
      expect(fields(said)).toEqual(['authUrl', 'baseUrl', 'clientId', 'clientSecret', 'incidentAfterSeconds', 'platformId', 'reliabilityScale', 'tenantId'])
      // It answers at the address it printed.
      const answer = await fetch(`${said.authUrl as string}/v2/auth/token`, { method: 'POST' })
      expect(answer.status).toBeGreaterThan(0)
    } finally {
      await simulator.stop()
    }
  }, 60_000)

  it('serve prints one line with its address, then serves', async () => {
    // The first serve of a checkout builds the UI once (cli/renderer-build.ts): hence the wait.
    const serve = startCli(['serve', '--port', '0', '--json', '--db', join(home, 'serve.db')], env)
    try {
      const [line] = await serve.waitFor(/^\{.*\}\n/, 150_000)
      const said = JSON.parse(line) as { url: string; team: boolean }
      expect(fields(said)).toEqual(['team', 'url'])
      expect(said.team).toBe(false)
      // The address with its token lets a browser in (a cookie, then the page).
      expect((await fetch(said.url, { redirect: 'manual' })).status).toBeLessThan(400)
    } finally {
      await serve.stop()
    }
  }, 180_000)
})
