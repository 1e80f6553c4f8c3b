// One session's viewer list fetched twice at once (issue 23, item 3), through `eventwatch sync
// --once` child processes, the simulator over loopback and a real SQLite file: a session the
// service lists twice in one listing, and two syncs on one cache asking for the same lists at
// the same moment. Each viewer is stored once, no storage error, nothing left staged.
import Database from 'better-sqlite3'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { CLI_BIN, cliEnv, homeEnv, ROOT, simulatorFlags } from '../support/cli'

let home: string
let sim: RunningSimulator

beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-sync-twice-'))
})
afterEach(async () => {
  await sim.close()
  rmSync(home, { recursive: true, force: true })
})

/** Five sessions (three live), in pages of two, with lists of 3 to 28 viewers. */
async function startWorld(viewersPageSize: number): Promise<void> {
  sim = await startSimulator({ liveSessions: 3, endedSessions: 2, viewersPerSession: 30, sessionsPageSize: 2, viewersPageSize, churnSessions: false })
}

interface Finished {
  code: number
  stderr: string
}

function syncOnce(file: string): Promise<Finished> {
  const env = cliEnv({ ...homeEnv(home), EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret })
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_BIN, 'sync', '--once', ...simulatorFlags(sim), '--db', file], { cwd: ROOT, env }, (error, _stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stderr })
    })
  })
}

/** What the cache holds after the syncs, read by a connection of its own. */
function readCache(file: string) {
  const db = new Database(file, { readonly: true })
  try {
    const lists = new Map<string, { ids: string[]; count: number }>()
    for (const session of sim.world.sessions) {
      const id = session.eventSessionId
      const list = db.prepare('SELECT id, viewer_count AS count FROM viewer_lists WHERE event_session_id = ? AND staged_at IS NULL').get(id) as
        | { id: number; count: number }
        | undefined
      const ids = list ? (db.prepare('SELECT viewer_id AS id FROM viewers WHERE list_id = ?').all(list.id) as { id: string }[]).map((r) => r.id) : []
      lists.set(id, { ids, count: list?.count ?? 0 })
    }
    return {
      lists,
      staged: (db.prepare('SELECT COUNT(*) AS n FROM viewer_lists WHERE staged_at IS NOT NULL').get() as { n: number }).n,
      rows: (db.prepare('SELECT COUNT(*) AS n FROM viewers').get() as { n: number }).n,
      integrity: db.pragma('integrity_check', { simple: true }),
      diagnostics: db.prepare('SELECT kind, endpoint, message FROM diagnostics').all() as { kind: string; endpoint: string; message: string }[]
    }
  } finally {
    db.close()
  }
}

/** Every session's list holds each of its viewers once, and nothing else is in the cache. */
function expectEachViewerOnce(cache: ReturnType<typeof readCache>): void {
  let all = 0
  for (const session of sim.world.sessions) {
    const ids = session.viewers.map((v) => v.viewerId).sort()
    const held = cache.lists.get(session.eventSessionId)
    expect(held?.ids.sort(), session.eventSessionId).toEqual(ids)
    expect(held?.count).toBe(ids.length)
    all += ids.length
  }
  expect(cache.rows).toBe(all)
  expect(cache.staged).toBe(0)
  expect(cache.integrity).toBe('ok')
}

describe('a session the service lists twice in one listing', () => {
  it('has its viewer list fetched once, each viewer stored once; the repeat is a diagnostic naming it, not a storage error', async () => {
    await startWorld(7)
    // Pages of two sessions, each later page starting with the last session of the one before.
    sim.faults.overlapSessionPages()
    const file = join(home, 'cache.db')
    const result = await syncOnce(file)

    expect(result.stderr).not.toMatch(/storage error/)
    expect(result.code, result.stderr).toBe(0)
    const sessions = sim.world.sessions.map((s) => s.eventSessionId)
    // Each session's list was asked for once, the repeated ones too.
    for (const id of sessions) expect(sim.stats.log.filter((r) => r.path === `/v1/events/sessions/${id}/viewers` && r.query === '')).toHaveLength(1)
    const cache = readCache(file)
    expectEachViewerOnce(cache)
    // Sessions 2, 3 and 4 in start order closed one page and opened the next.
    const repeated = sim.world.sessions.slice(1, 4).map((s) => s.eventSessionId)
    const notes = cache.diagnostics.filter((d) => d.endpoint === 'GET /v1/events/sessions')
    expect(notes).toHaveLength(1)
    expect(notes[0]?.kind).toBe('response-format')
    for (const id of repeated) expect(notes[0]?.message).toContain(id)
    expect(notes[0]?.message).toMatch(/listed more than once/)
  }, 60_000)
})

describe('two syncs on one cache', () => {
  it('fetching the same lists at the same moment store each viewer once, and neither fails', async () => {
    await startWorld(1)
    // Each list's last page is answered only once both syncs have asked for it: by then each has
    // begun staging the list and stored its first page (a list here has three pages or more).
    for (const session of sim.world.sessions) expect(session.viewers.length).toBeGreaterThanOrEqual(3)
    sim.faults.answerLastViewerPagesTogether(2)
    const file = join(home, 'shared.db')
    const [first, second] = await Promise.all([syncOnce(file), syncOnce(file)])

    for (const result of [first, second]) {
      expect(result.stderr).not.toMatch(/storage error/)
      expect(result.code, result.stderr).toBe(0)
    }
    // Both fetched every list, to its end.
    for (const session of sim.world.sessions) {
      expect(sim.stats.log.filter((r) => r.path === `/v1/events/sessions/${session.eventSessionId}/viewers` && r.query === '')).toHaveLength(2)
    }
    expectEachViewerOnce(readCache(file))
  }, 60_000)
})
