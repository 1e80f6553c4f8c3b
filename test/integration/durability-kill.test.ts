// Durability: `eventwatch sync --once` killed with SIGKILL in the middle of storing viewer lists
// leaves a cache that opens, passes integrity_check, and holds every unit committed before the
// kill — whole (each stored list has exactly its viewer_count viewers), never half of one. Pages
// staged for a list not yet swapped in are never read, and are dropped once untouched for an hour
// (another process cannot tell them from a fetch still going), when a list is next staged.
import Database from 'better-sqlite3'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { openDatabase } from '../../src/main/core/store/db'
import { ABANDONED_AFTER_MS } from '../../src/main/core/store/viewer-staging'
import { CLI_BIN, cliEnv, homeEnv, ROOT, simulatorFlags } from '../support/cli'

const SESSIONS = 20
let home: string
let sim: RunningSimulator

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-durability-'))
  sim = await startSimulator({
    liveSessions: SESSIONS,
    endedSessions: 0,
    churnSessions: false,
    viewersPerSession: 3000,
    viewersPageSize: 500
  })
})
afterAll(async () => {
  await sim.close()
  rmSync(home, { recursive: true, force: true })
})

function startSync(file: string): { done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>; kill: () => void } {
  const env = cliEnv({ ...homeEnv(home), EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret })
  const child = spawn(process.execPath, [CLI_BIN, 'sync', '--once', ...simulatorFlags(sim), '--db', file], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe']
  })
  let stderr = ''
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()))
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((r) =>
    child.on('close', (code, signal) => r({ code, signal, stderr }))
  )
  return { done, kill: () => child.kill('SIGKILL') }
}

/** The lists the child has committed so far, read through a read-only connection. */
function committedLists(file: string, reader: { db: Database.Database | null }): string[] | null {
  if (!existsSync(file)) return null
  try {
    reader.db ??= new Database(file, { readonly: true, fileMustExist: true })
    return (reader.db.prepare('SELECT event_session_id AS id FROM viewer_lists WHERE staged_at IS NULL').all() as { id: string }[]).map((r) => r.id)
  } catch {
    // Not created or not migrated yet: try again on the next tick.
    reader.db?.close()
    reader.db = null
    return null
  }
}

/** Runs a sync and SIGKILLs it once `atLeast` lists are committed (plus `extraMs`). */
async function syncKilledAfter(file: string, atLeast: number, extraMs: number) {
  const sync = startSync(file)
  const reader: { db: Database.Database | null } = { db: null }
  let seen: string[] = []
  let finished = false
  void sync.done.then(() => (finished = true))
  try {
    while (!finished) {
      const lists = committedLists(file, reader)
      if (lists && lists.length >= atLeast) {
        seen = lists
        break
      }
      await new Promise((r) => setTimeout(r, 2))
    }
  } finally {
    reader.db?.close()
  }
  if (extraMs > 0) await new Promise((r) => setTimeout(r, extraMs))
  sync.kill()
  const result = await sync.done
  return { seen, result }
}

function checkWhole(file: string) {
  const db = openDatabase(file)
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    expect(db.pragma('foreign_key_check')).toEqual([])
    // Every stored list is complete: its viewers, each with its one network connection.
    const lists = db
      .prepare(
        `SELECT vl.event_session_id AS id, vl.viewer_count AS expected,
           (SELECT COUNT(*) FROM viewers v WHERE v.list_id = vl.id) AS viewers,
           (SELECT COUNT(*) FROM viewers v JOIN viewer_connections c ON c.viewer = v.id WHERE v.list_id = vl.id) AS connections
         FROM viewer_lists vl WHERE vl.staged_at IS NULL`
      )
      .all() as { id: string; expected: number; viewers: number; connections: number }[]
    // A list staged when the kill came: its pages whole, each counted in its row, never held.
    const staged = db.prepare('SELECT COALESCE(SUM(viewer_count), 0) AS n, COUNT(*) AS lists FROM viewer_lists WHERE staged_at IS NOT NULL').get() as { n: number; lists: number }
    for (const list of lists) {
      expect(list.expected).toBeGreaterThan(0)
      expect(list.viewers, list.id).toBe(list.expected)
      expect(list.connections, list.id).toBe(list.expected)
    }
    // No viewer outside a stored or staged list, no snapshot of an unknown session.
    expect(db.prepare('SELECT COUNT(*) AS n FROM viewers').get()).toEqual({ n: lists.reduce((n, l) => n + l.expected, 0) + staged.n })
    expect(
      db.prepare(
        `SELECT COUNT(*) AS n FROM snapshots sn WHERE NOT EXISTS (SELECT 1 FROM sessions s
           WHERE s.connection_id = sn.connection_id AND s.event_session_id = sn.event_session_id)`
      ).get()
    ).toEqual({ n: 0 })
    return { held: lists.map((l) => l.id), stagedLists: staged.lists }
  } finally {
    db.close()
  }
}

describe('a sync killed with SIGKILL mid-ingest', () => {
  // Three different moments: after the first list, a third of the way, two thirds.
  it.each([
    [1, 0],
    [7, 3],
    [13, 11]
  ])('after %i committed lists (+%i ms): opens whole, keeps every committed list', async (atLeast, extraMs) => {
    const file = join(home, `killed-${atLeast}.db`)
    const { seen, result } = await syncKilledAfter(file, atLeast, extraMs)
    expect(result.signal, result.stderr).toBe('SIGKILL')
    expect(seen.length).toBeGreaterThanOrEqual(atLeast)

    const { held: kept } = checkWhole(file)
    expect(kept).toEqual(expect.arrayContaining(seen))
    // Some but not all: the kill did land mid-ingest.
    expect(kept.length).toBeLessThan(SESSIONS)

    if (atLeast === 1) {
      // The same file carries on: a new sync completes it.
      const again = await startSync(file).done
      expect(again.code, again.stderr).toBe(0)
      expect(checkWhole(file).held).toHaveLength(SESSIONS)
      // An hour on, the killed sync's stagings are abandoned: the next sync drops them.
      const db = new Database(file)
      db.prepare('UPDATE viewer_lists SET staged_at = staged_at - ? WHERE staged_at IS NOT NULL').run(ABANDONED_AFTER_MS)
      db.close()
      const later = await startSync(file).done
      expect(later.code, later.stderr).toBe(0)
      expect(checkWhole(file).stagedLists).toBe(0)
    }
  }, 120_000)
})
