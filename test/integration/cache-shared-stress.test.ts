// A minute of everything at once on one cache (issue 23): a team server and a `sync --interval 1`
// polling the same connection, while the sqlite3 shell and Python read it every moment, a user
// is removed and another added, and a backup is taken. Nothing is lost, nothing is reported as a
// storage error, the server obeys the users table throughout, and the file is whole after.
import { statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { homeEnv, simulatorFlags } from '../support/cli'
import { runCli, startCli, type RunningCli } from '../support/cli-processes'
import { addUserByCli, freePort, statusWith } from '../support/cli-team'
import { descriptorsOn, pythonQuery, sqliteShell } from '../support/other-sqlite-clients'
import { tempDirs } from '../support/temp-dirs'

const newDir = tempDirs('eventwatch-cache-stress-')
/** The minute. */
const RUN_MS = 60_000

let sim: RunningSimulator
beforeAll(async () => {
  sim = await startSimulator({ liveSessions: 4, endedSessions: 4, viewersPerSession: 300, sessionsPageSize: 3, viewersPageSize: 50 })
})
afterAll(() => sim.close())

interface Reading {
  snapshots: number
  runs: number
}

it('serve, sync --interval 1 and other SQLite clients on one cache for a minute: nothing lost, no storage error, integrity ok', async () => {
  const dir = newDir()
  const file = join(dir, 'shared.db')
  const env = { ...homeEnv(dir), EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret }
  const bob = await addUserByCli(file, 'bob', env)
  const port = await freePort()
  const flags = simulatorFlags(sim)
  const serve = startCli(['serve', '--listen', `127.0.0.1:${port}`, '--db', file, '--interval', '1', ...flags], env)
  let sync: RunningCli | undefined
  const readings: Reading[] = []
  let carol = ''
  let origin = ''
  try {
    origin = (await serve.waitFor(/serving on (http:\/\/127\.0\.0\.1:\d+)/))[1]!
    sync = startCli(['sync', '--interval', '1', '--db', file, ...flags], env)
    const started = Date.now()
    let round = 0
    while (Date.now() - started < RUN_MS) {
      round++
      // A monitoring script's look, and an administrator's, each closing after.
      const [[snapshots, runs]] = (await pythonQuery(file, 'SELECT (SELECT count(*) FROM snapshots), (SELECT count(*) FROM sync_runs)')) as [[number, number]]
      readings.push({ snapshots, runs })
      await sqliteShell(file, 'SELECT count(*) FROM viewers;')
      expect(descriptorsOn(serve.pid, file).filter((d) => d.endsWith('(deleted)'))).toEqual([])
      expect(descriptorsOn(sync.pid, file).filter((d) => d.endsWith('(deleted)'))).toEqual([])
      if (round === 10) {
        expect((await runCli(['users', 'remove', 'bob', '--db', file], env)).code).toBe(0)
        carol = await addUserByCli(file, 'carol', env)
      }
      if (round === 20) {
        const backup = await runCli(['backup', join(dir, 'backup.db'), '--db', file], env)
        expect(backup.code, backup.stderr).toBe(0)
      }
      if (round === 11) expect(await statusWith(origin, bob)).toBe(401) // once: guesses are rate-limited
      if (round > 10) expect(await statusWith(origin, carol)).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(round).toBeGreaterThan(20)
  } finally {
    const syncExit = await sync?.stop()
    const serveExit = await serve.stop()
    expect(syncExit?.code, sync?.output().stderr).toBe(0)
    expect(serveExit.code, serve.output().stderr).toBe(0)
  }

  // Nothing reported as a storage error, by either process or in the cache's own records.
  for (const process of [serve, sync!]) expect(process.output().stderr + process.output().stdout).not.toMatch(/storage error|database is locked|malformed/i)
  expect(await pythonQuery(file, "SELECT message FROM diagnostics WHERE kind = 'storage'")).toEqual([])
  // Nothing lost: what was counted only grew, every run finished, every snapshot a run stored is there.
  for (let i = 1; i < readings.length; i++) expect(readings[i]!.snapshots).toBeGreaterThanOrEqual(readings[i - 1]!.snapshots)
  expect(readings.at(-1)!.snapshots).toBeGreaterThan(readings[0]!.snapshots)
  expect(await pythonQuery(file, 'SELECT count(*) FROM sync_runs WHERE finished_at IS NULL')).toEqual([[0]])
  // A run the stop caught midway is 'stopped' (what it did is kept); none failed, none for the cache.
  expect(
    await pythonQuery(file, "SELECT kind, outcome, error FROM sync_runs WHERE outcome NOT IN ('ok', 'partial', 'stopped') OR error LIKE '%storage%' OR error LIKE '%locked%'")
  ).toEqual([])
  const [[stored, counted]] = (await pythonQuery(file, 'SELECT (SELECT count(*) FROM snapshots), (SELECT sum(snapshots) FROM sync_runs)')) as [[number, number]]
  expect(stored).toBe(counted)
  // Every held viewer list whole: each viewer once, as many as it says.
  expect(await pythonQuery(file, 'SELECT list_id, viewer_id FROM viewers GROUP BY list_id, viewer_id HAVING count(*) > 1')).toEqual([])
  expect(
    await pythonQuery(file, 'SELECT l.id FROM viewer_lists l WHERE l.staged_at IS NULL AND l.viewer_count <> (SELECT count(*) FROM viewers v WHERE v.list_id = l.id)')
  ).toEqual([])
  expect(await pythonQuery(file, 'SELECT name FROM users')).toEqual([['carol']])
  expect(await sqliteShell(file, 'PRAGMA integrity_check;')).toBe('ok\n')
  expect(await sqliteShell(file, 'PRAGMA foreign_key_check;')).toBe('')
  // The backup taken in the middle is a whole cache of its own.
  expect(await sqliteShell(join(dir, 'backup.db'), 'PRAGMA integrity_check;')).toBe('ok\n')
  expect(statSync(join(dir, 'backup.db')).mode & 0o777).toBe(0o600)
}, 180_000)
