// A viewer listing the service cuts short by repeating its cursor (issue 23, item 9), through
// `eventwatch sync --once` against the simulator over loopback into a real SQLite file: the list
// read up to the repeat is stored (as documented), and the run says so: its summary line names
// the session and says its list was cut short, and the Diagnostics entry names the connection.
import Database from 'better-sqlite3'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { CLI_BIN, cliEnv, homeEnv, ROOT, simulatorFlags } from '../support/cli'

let home: string
let sim: RunningSimulator

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-cut-short-'))
  sim = await startSimulator({ liveSessions: 1, endedSessions: 0, viewersPerSession: 60, viewersPageSize: 10, churnSessions: false })
})
afterAll(async () => {
  await sim.close()
  rmSync(home, { recursive: true, force: true })
})

function syncOnce(file: string): Promise<{ code: number; stderr: string }> {
  const env = cliEnv({ ...homeEnv(home), EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret })
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI_BIN, 'sync', '--once', ...simulatorFlags(sim), '--db', file], { cwd: ROOT, env }, (error, _stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stderr })
    })
  })
}

it('sync --once names the session whose viewer list was cut short, and the diagnostic names the connection', async () => {
  // From its second page on, every viewer page answers the cursor it was asked with.
  sim.faults.repeatViewerCursors()
  const session = sim.world.sessions[0]
  expect(session?.viewers.length).toBeGreaterThan(20)
  const id = session?.eventSessionId ?? ''
  const file = join(home, 'cache.db')
  const result = await syncOnce(file)

  // The list read up to the repeat is the list: not a failure of the run.
  expect(result.code, result.stderr).toBe(0)
  const summary = result.stderr.split('\n').find((line) => line.includes('(command line):')) ?? ''
  expect(summary).toContain(id)
  expect(summary).toMatch(/cut short/)
  expect(summary).toMatch(/after 2 pages/)

  const db = new Database(file, { readonly: true })
  try {
    const connection = db.prepare('SELECT id, name FROM connections WHERE is_demo = 0').get() as { id: string; name: string }
    expect(db.prepare('SELECT viewer_count AS n, pages FROM viewer_lists WHERE event_session_id = ?').get(id)).toEqual({ n: 20, pages: 2 })
    const notes = db.prepare("SELECT connection_id AS connectionId, message FROM diagnostics WHERE endpoint = 'GET /v1/events/sessions/{id}/viewers'").all() as {
      connectionId: string
      message: string
    }[]
    expect(notes).toHaveLength(1)
    expect(notes[0]?.connectionId).toBe(connection.id)
    expect(notes[0]?.message).toContain(connection.name)
    expect(notes[0]?.message).toContain(id)
    expect(notes[0]?.message).toMatch(/repeated a page cursor after 2 pages/)
  } finally {
    db.close()
  }
}, 60_000)
