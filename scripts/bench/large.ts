// Part 5: one session of a million viewers (issue 13). `eventwatch sync --once` as a whole
// process against a simulator "crowd" (its viewers made when listed, so the simulator holds a
// page, not the list): the list must be stored whole while the sync's memory stays bounded by
// a few pages. Prints the time, the rate and the peak RSS; checks the cache holds every viewer.
//   npm run bench -- large                     # 1,000,000 viewers
//   npm run bench -- large --viewers 5000000   # any size
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSimulator } from '../../src/main/core/simulator/server'
import { timeProcess } from './ingest'
import { int, log, mb, ms, type Figure } from './stats'

export const LARGE_DEFAULT_VIEWERS = 1_000_000
const RSS_GOAL_BYTES = 400 * 1024 * 1024

export async function benchLarge(viewers = LARGE_DEFAULT_VIEWERS): Promise<Figure[]> {
  const frozen = Date.now()
  const simulator = await startSimulator({
    seed: 7,
    liveSessions: 0,
    endedSessions: 0,
    churnSessions: false,
    viewersPageSize: 500,
    crowd: { viewers },
    clock: () => frozen
  })
  const crowd = simulator.world.sessions.find((s) => s.crowd !== undefined)
  log(`large: one live session of ${int(viewers)} viewers in pages of 500 (${int(Math.ceil(viewers / 500))} pages)`)
  const c = simulator.credentials
  const scratch = mkdtempSync(join(tmpdir(), 'eventwatch-bench-large-'))
  const db = join(scratch, 'large.db')
  try {
    const run = await timeProcess(
      ['bin/eventwatch.js', 'sync', '--once', '--db', db, '--base-url', simulator.baseUrl, '--auth-url', simulator.authUrl,
        '--platform-id', c.platformId, '--tenant-id', c.tenantId, '--client-id', c.clientId],
      { EVENTWATCH_CLIENT_SECRET: c.clientSecret },
      scratch
    )
    const reader = new Database(db, { readonly: true })
    const held = reader
      .prepare('SELECT viewer_count AS n, (SELECT COUNT(*) FROM viewers v WHERE v.list_id = vl.id) AS rows FROM viewer_lists vl WHERE event_session_id = ? AND staged_at IS NULL')
      .get(crowd?.eventSessionId) as { n: number; rows: number } | undefined
    reader.close()
    const size = statSync(db).size + (statSafe(`${db}-wal`) ?? 0)
    const whole = held?.n === viewers && held.rows === viewers
    log(`large: sync --once ${ms(run.ms)} (${int((viewers / run.ms) * 1000)} viewers/s), peak RSS ${mb(run.peakRss)}, db ${mb(size)}; held ${int(held?.rows ?? 0)} of ${int(viewers)}`)
    return [
      { part: '5 large list', name: `sync --once of one ${int(viewers)}-viewer list`, value: `${ms(run.ms)} (${int((viewers / run.ms) * 1000)} viewers/s)`, goal: '(reference)', met: true },
      { part: '5 large list', name: 'stored whole', value: `${int(held?.rows ?? 0)} of ${int(viewers)}`, goal: 'every viewer', met: whole },
      { part: '5 large list', name: 'peak RSS of that sync', value: mb(run.peakRss), goal: '< 400 MB', met: run.peakRss < RSS_GOAL_BYTES }
    ]
  } finally {
    await simulator.close()
    rmSync(scratch, { recursive: true, force: true })
  }
}

function statSafe(file: string): number | undefined {
  try {
    return statSync(file).size
  } catch {
    return undefined
  }
}
