// An operator's desk during an incident, with several tenants (issue 24): three saved connections
// on one cache, each to its own simulator over loopback, polled every 2 s by the browser host.
//
//   Contoso    its service stops answering after the first polls (connection refused)
//   Fabrikam   one live session's reliability falls to about 41
//   Northwind  one live session's busiest office ("Leeds office", named with `sites set`)
//              watches at 30 while the session's own score stays healthy
//
// Fabrikam and Northwind run the same seed, so their sessions have the same names: two
// "All-hands"-style sessions of one name from two connections, as tenants of one company have.
// Live sessions are shared out between the two that keep answering (`liveSessions` in all).
import { expect } from '@playwright/test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startSimulator, type RunningSimulator } from '../../../src/main/core/simulator/server'
import { startBrowserHost, type BrowserHost } from '../browser-host'
import { request } from './api'
import { addConnection, cli } from './cli'

export const DESK_CONNECTIONS = { stopped: 'Contoso', falling: 'Fabrikam', office: 'Northwind' } as const
export const OFFICE_NAME = 'Leeds office'
/** Where the falling session ends up: its baseline (96–99.6) less this. */
const FALL_POINTS = 56

export interface IncidentDesk {
  host: BrowserHost
  /** The cache file the host polls into (for the CLI: `sites`, `export`, `report`). */
  db: string
  falling: { sim: RunningSimulator; eventSessionId: string; eventName: string }
  office: { sim: RunningSimulator; eventSessionId: string; eventName: string; siteCode: number }
  stop(): Promise<void>
}

export interface DeskOptions {
  /** Live sessions over Fabrikam and Northwind together (at least 2). */
  liveSessions?: number
  viewersPerSession?: number
}

function liveOf(sim: RunningSimulator) {
  const session = sim.world.sessions.find((s) => !s.hasEnded)
  if (!session) throw new Error('the simulator has no live session')
  return session
}

/** The site most of this session's viewers watch from. */
function busiestSite(viewers: { siteCode: number }[]): number {
  const counts = new Map<number, number>()
  for (const v of viewers) counts.set(v.siteCode, (counts.get(v.siteCode) ?? 0) + 1)
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0]
}

export async function startIncidentDesk(options: DeskOptions = {}): Promise<IncidentDesk> {
  const live = Math.max(2, options.liveSessions ?? 4)
  const viewersPerSession = options.viewersPerSession ?? 120
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-e2e-desk-'))
  const db = join(dir, 'cache.db')
  const quiet = { endedSessions: 2, viewersPerSession, churnSessions: false, randomIncidents: false, seed: 7 }
  const stopped = await startSimulator({ ...quiet, liveSessions: 2, seed: 3 })
  const fallingSim = await startSimulator({ ...quiet, liveSessions: Math.ceil(live / 2) })
  const officeSim = await startSimulator({ ...quiet, liveSessions: Math.floor(live / 2) })
  let host: BrowserHost | undefined
  const stopAll = async (): Promise<void> => {
    await host?.stop()
    for (const name of Object.values(DESK_CONNECTIONS)) {
      try {
        cli(['connections', 'remove', name, '--db', db]) // its secret leaves the keychain
      } catch {
        // never saved
      }
    }
    await Promise.all([stopped.close(), fallingSim.close(), officeSim.close()])
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    addConnection(DESK_CONNECTIONS.stopped, stopped, db)
    addConnection(DESK_CONNECTIONS.falling, fallingSim, db)
    addConnection(DESK_CONNECTIONS.office, officeSim, db)
    const office = liveOf(officeSim)
    const siteCode = busiestSite(office.viewers)
    cli(['sites', 'set', String(siteCode), OFFICE_NAME, '--db', db])
    host = await startBrowserHost(['--interval', '2', '--db', db])
    // Every connection polled once, so the one that stops has a last good update to show: its
    // rows on the board are not enough (a list shows before the poll that brought it completes).
    await expect
      .poll(async () => (await request(host!, 'listLiveSessions', {})).sessions.length, { timeout: 120_000, message: 'every connection polled' })
      .toBeGreaterThanOrEqual(live + 2)
    await expect
      .poll(async () => (await request(host!, 'getStatus', {})).connections.filter((c) => c.lastUpdateAt !== null).length, {
        timeout: 120_000,
        message: 'every connection has a successful poll'
      })
      .toBe(3)
    await stopped.close()
    const falling = liveOf(fallingSim)
    fallingSim.world.incident(falling.eventSessionId, { drop: FALL_POINTS, minutes: 60 })
    officeSim.faults.siteIncident(office.eventSessionId, siteCode, { reliability: 30, minutes: 60 })
    return {
      host,
      db,
      falling: { sim: fallingSim, eventSessionId: falling.eventSessionId, eventName: falling.eventName },
      office: { sim: officeSim, eventSessionId: office.eventSessionId, eventName: office.eventName, siteCode },
      stop: stopAll
    }
  } catch (error) {
    await stopAll()
    throw error
  }
}
