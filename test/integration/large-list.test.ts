// Memory bounded by a page, not by the data (issue 13): `eventwatch sync --once` of one session
// of 1,000,000 viewers (a simulator crowd, made page by page) stores the list whole while its
// peak RSS stays under 400 MB. It used to hold the whole list: 2.4 GB at this size. The time it
// takes is the benchmark's business (`npm run bench -- large`), not this test's.
import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { CLI_BIN, cliEnv, homeEnv, ROOT, simulatorFlags } from '../support/cli'

const VIEWERS = 1_000_000
const RSS_LIMIT = 400 * 1024 * 1024
let home: string
let sim: RunningSimulator

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-large-'))
  const frozen = Date.now()
  sim = await startSimulator({ liveSessions: 0, endedSessions: 0, churnSessions: false, crowd: { viewers: VIEWERS }, clock: () => frozen })
})
afterAll(async () => {
  await sim.close()
  rmSync(home, { recursive: true, force: true })
})

it('stores a list of a million viewers whole with a peak RSS under 400 MB', async () => {
  const db = join(home, 'large.db')
  const rssFile = join(home, 'rss')
  const child = spawn(
    process.execPath,
    ['--import', join(ROOT, 'scripts', 'bench', 'rss-hook.mjs'), CLI_BIN, 'sync', '--once', '--db', db, ...simulatorFlags(sim)],
    { cwd: ROOT, env: cliEnv({ ...homeEnv(home), EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret, EVENTWATCH_BENCH_RSS_FILE: rssFile }), stdio: ['ignore', 'ignore', 'pipe'] }
  )
  let stderr = ''
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()))
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  expect(code, stderr.slice(-500)).toBe(0)

  const crowd = sim.world.sessions.find((s) => s.crowd !== undefined)
  const reader = new Database(db, { readonly: true })
  const held = reader
    .prepare('SELECT viewer_count AS count, (SELECT COUNT(*) FROM viewers v WHERE v.list_id = vl.id) AS rows FROM viewer_lists vl WHERE event_session_id = ? AND staged_at IS NULL')
    .get(crowd?.eventSessionId)
  const staged = reader.prepare('SELECT COUNT(*) AS n FROM viewer_lists WHERE staged_at IS NOT NULL').get()
  reader.close()
  expect(held).toEqual({ count: VIEWERS, rows: VIEWERS })
  expect(staged).toEqual({ n: 0 })
  const { peakRss } = JSON.parse(readFileSync(rssFile, 'utf8')) as { peakRss: number }
  expect(peakRss).toBeGreaterThan(0)
  expect(peakRss).toBeLessThan(RSS_LIMIT)
}, 300_000)
