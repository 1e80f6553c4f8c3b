// `eventwatch sync` as scripts use it: exit codes, one-line errors in the taxonomy's words,
// EVENTWATCH_DB, and a continuous sync that stops cleanly on SIGINT.
import Database from 'better-sqlite3'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { CLI_BIN, cliEnv, homeEnv, ROOT, simulatorFlags } from '../support/cli'

let home: string
let sim: RunningSimulator

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-cli-sync-'))
  sim = await startSimulator({ liveSessions: 2, endedSessions: 2, viewersPerSession: 40 })
})
afterAll(async () => {
  await sim.close()
  rmSync(home, { recursive: true, force: true })
})

function start(args: string[], env: NodeJS.ProcessEnv = {}): { child: ChildProcess; done: Promise<{ code: number | null; stdout: string; stderr: string }> } {
  const childEnv = cliEnv({ ...homeEnv(home), ...env })
  if (!('EVENTWATCH_CLIENT_SECRET' in env)) delete childEnv.EVENTWATCH_CLIENT_SECRET
  const child = spawn(process.execPath, [CLI_BIN, ...args], { cwd: ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()))
  const done = new Promise<{ code: number | null; stdout: string; stderr: string }>((r) =>
    child.on('close', (code) => r({ code, stdout, stderr }))
  )
  return { child, done }
}
const run = (args: string[], env: NodeJS.ProcessEnv = {}) => start(args, env).done

const lastLine = (text: string): string => text.trim().split('\n').at(-1) ?? ''
const NO_STACK = /\n\s+at .+[:(]/

describe('eventwatch sync', () => {
  it('writes to EVENTWATCH_DB when no --db is given', async () => {
    const file = join(home, 'from-env.db')
    const result = await run(['sync', '--once'], { EVENTWATCH_DB: file })
    expect(result.code, result.stderr).toBe(0)
    expect(existsSync(file)).toBe(true)
    expect(existsSync(join(home, 'config', 'eventwatch', 'eventwatch.db'))).toBe(false)
  }, 60_000)

  it('syncs an unsaved connection given by flags with the secret from the environment', async () => {
    const file = join(home, 'adhoc.db')
    const result = await run(['sync', '--once', ...simulatorFlags(sim), '--db', file], { EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret })
    expect(result.code, result.stderr).toBe(0)
    const db = new Database(file, { readonly: true })
    try {
      const lists = (db.prepare('SELECT COUNT(*) AS n FROM viewer_lists').get() as { n: number }).n
      expect(lists).toBe(4)
      // Kept for its history, but not polled by the app (which has no secret for it).
      expect(db.prepare('SELECT enabled FROM connections WHERE is_demo = 0').all()).toEqual([{ enabled: 0 }])
      // The pass is on record with what it did.
      expect(db.prepare('SELECT kind, outcome, viewer_lists AS lists, problems FROM sync_runs').all()).toEqual([
        { kind: 'once', outcome: 'ok', lists: 4, problems: 0 }
      ])
    } finally {
      db.close()
    }
  }, 60_000)

  it('exits 1 with one network line when the service is down, and keeps the cache', async () => {
    const closed = await new Promise<number>((r) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number }
        probe.close(() => r(port))
      })
    })
    const result = await run(['sync', '--once', ...simulatorFlags(sim, `http://127.0.0.1:${closed}`), '--db', join(home, 'down.db')], {
      EVENTWATCH_CLIENT_SECRET: 'x'
    })
    expect(result.code).toBe(1)
    expect(lastLine(result.stderr)).toMatch(/^eventwatch: network error: .*connection refused/)
    expect(result.stderr).not.toMatch(NO_STACK)
  }, 60_000)

  it.each([
    [['--base-url', 'https://api.example.com'], /needs --auth-url, --platform-id, --tenant-id, --client-id/],
    [['--connection', 'Nope'], /no saved connection named "Nope"/],
    [['--connection', 'A', '--base-url', 'https://x.example.com'], /either --connection NAME or/]
  ])('exits 2 with one line for a wrong connection on the command line %j', async (flags, message) => {
    const result = await run(['sync', '--once', ...flags, '--db', join(home, 'bad.db')], { EVENTWATCH_CLIENT_SECRET: 's' })
    expect(result.code).toBe(2)
    expect(lastLine(result.stderr)).toMatch(message)
    expect(result.stderr).not.toMatch(NO_STACK)
  }, 60_000)

  it('refuses plain http to another host, and a missing secret, before any request', async () => {
    const http = await run(['sync', '--once', ...simulatorFlags(sim, 'http://api.example.com'), '--db', join(home, 'bad.db')], {
      EVENTWATCH_CLIENT_SECRET: 's'
    })
    expect(http.code).toBe(2)
    expect(lastLine(http.stderr)).toMatch(/--base-url: must use https:/)
    const noSecret = await run(['sync', '--once', ...simulatorFlags(sim), '--db', join(home, 'bad.db')])
    expect(noSecret.code).toBe(2)
    expect(lastLine(noSecret.stderr)).toMatch(/set EVENTWATCH_CLIENT_SECRET/)
  }, 60_000)

  it('keeps polling until SIGINT, then finishes the unit in hand and exits 0', async () => {
    const file = join(home, 'continuous.db')
    const { child, done } = start(['sync', '--interval', '1', '--db', file])
    let stderr = ''
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()))
    // Two passes reported, then stop.
    await new Promise<void>((r) => {
      const timer = setInterval(() => {
        if ((stderr.match(/Demo data: \d+ sessions/g) ?? []).length >= 2) {
          clearInterval(timer)
          r()
        }
      }, 100)
    })
    child.kill('SIGINT')
    const result = await done
    expect(result.code).toBe(0)
    const db = new Database(file, { readonly: true })
    try {
      const perSession = db.prepare('SELECT COUNT(*) AS n FROM snapshots GROUP BY event_session_id').all() as { n: number }[]
      expect(perSession.length).toBeGreaterThan(0)
      expect(Math.min(...perSession.map((r) => r.n))).toBeGreaterThanOrEqual(2)
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    } finally {
      db.close()
    }
  }, 60_000)
})
