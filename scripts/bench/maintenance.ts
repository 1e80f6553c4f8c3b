// Part 6: maintenance windows at scale (issue 23). A cache holding 100 windows and one holding
// 10,000 (daily, weekly and one-off, in four time zones, a tenth of them in force now), each
// behind the app core's own dispatch as a face calls it: the time to add one window
// (`addMaintenance`, which also pushes the situation) and the size and time of an alerts page
// (`listAlerts`). Both should stay flat: the 10,000-window figures as ratios of the 100-window
// ones measured in the same run.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import { openDatabase } from '../../src/main/core/store/db'
import type { AlertsPage } from '../../src/shared/alerts'
import { repeatPhase } from '../../src/shared/maintenance'
import { int, log, median, ms, type Figure } from './stats'

export interface MaintenanceBenchOptions {
  small: number
  large: number
  /** Timed adds and pages per cache (after a few warm-up ones). */
  runs: number
}

export const MAINTENANCE_DEFAULTS: MaintenanceBenchOptions = { small: 100, large: 10_000, runs: 50 }

const CONNECTION = 'bench-connection'
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'UTC']
const HOUR = 3_600_000
const DAY = 24 * HOUR
/** Windows in force now, in either cache: what the situation names grows with these, not with all. */
const IN_FORCE = 10
/** A flat figure may grow this much from 100 windows to 10,000. */
const GOAL_RATIO = 2

/** A cache file with `count` windows for one connection, written with direct SQL. */
function fill(file: string, count: number, now: number): void {
  const db = openDatabase(file)
  try {
    db.prepare(
      `INSERT INTO connections (id, name, base_url, auth_url, platform_id, tenant_id, client_id, is_demo, created_at)
       VALUES (?, 'Bench tenant', 'https://api.example.test', 'https://auth.example.test', 'p', 't', 'c', 0, ?)`
    ).run(CONNECTION, now)
    const insert = db.prepare(
      `INSERT INTO maintenance_windows (name, starts_at, ends_at, repeat, connection_id, created_at, time_zone, phase_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
    )
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const repeat = (['none', 'daily', 'weekly'] as const)[i % 3] as 'none' | 'daily' | 'weekly'
        const zone = ZONES[i % ZONES.length] as string
        // The same few in force now in either cache. The others start 2 to 20 hours after now's time
        // of day (and on another weekday): none is in force while the bench runs.
        const inForce = i < IN_FORCE
        const later = (2 + (i % 18)) * HOUR + ((i * 7) % 60) * 60_000
        const startsAt = inForce ? now - 30 * 60_000 - (repeat === 'none' ? 0 : 14 * DAY) : now + later - (repeat === 'none' ? 0 : 30 * DAY)
        insert.run(`Window ${i} for the bench tenant`, startsAt, startsAt + HOUR, repeat, CONNECTION, now, zone, repeatPhase(repeat, zone, startsAt))
      }
    })()
  } finally {
    db.close()
  }
}

interface Measured {
  addMs: number
  pageMs: number
  pageBytes: number
}

async function measure(core: AppCore, runs: number, now: number): Promise<Measured> {
  const ask = async (name: string, args: unknown): Promise<unknown> => {
    const result = await core.dispatch(name, args)
    if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
    return result.value
  }
  const adds: number[] = []
  const pages: number[] = []
  let pageBytes = 0
  for (let i = -3; i < runs; i++) {
    const window = {
      name: `Added ${i}`,
      startsAt: new Date(now + (i + 10) * DAY).toISOString(),
      endsAt: new Date(now + (i + 10) * DAY + HOUR).toISOString(),
      repeat: 'weekly',
      timeZone: 'Europe/Berlin',
      connectionId: CONNECTION
    }
    let started = performance.now()
    await ask('addMaintenance', { window })
    if (i >= 0) adds.push(performance.now() - started)
    started = performance.now()
    const page = (await ask('listAlerts', {})) as AlertsPage
    if (i >= 0) pages.push(performance.now() - started)
    // The figures mean something only if exactly the windows in force were found.
    if (!page.situation.headline.endsWith(`and ${IN_FORCE - 5} more`)) throw new Error(`not ${IN_FORCE} windows in force: ${page.situation.headline}`)
    pageBytes = Buffer.byteLength(JSON.stringify(page))
  }
  return { addMs: median(adds), pageMs: median(pages), pageBytes }
}

async function run(count: number, options: MaintenanceBenchOptions, dir: string): Promise<Measured> {
  const file = join(dir, `maintenance-${count}.db`)
  const now = Date.now()
  fill(file, count, now)
  const core = await startAppCore({ db: file, sources: async () => [], teamFile: join(dir, 'team.json') })
  try {
    const measured = await measure(core, options.runs, now)
    log(`${int(count)} windows: add ${ms(measured.addMs)}, listAlerts ${ms(measured.pageMs)} and ${int(measured.pageBytes)} bytes (medians of ${options.runs})`)
    return measured
  } finally {
    await core.close()
  }
}

export async function benchMaintenance(options: MaintenanceBenchOptions = MAINTENANCE_DEFAULTS): Promise<Figure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'eventwatch-bench-maintenance-'))
  try {
    const small = await run(options.small, options, dir)
    const large = await run(options.large, options, dir)
    const ratio = (a: number, b: number): number => a / b
    const figure = (name: string, value: number, unit: string): Figure => ({
      part: 'maintenance',
      name: `${name}, ${int(options.large)} vs ${int(options.small)} windows`,
      value: `${value.toFixed(2)}× (${unit})`,
      goal: `≤ ${GOAL_RATIO}×`,
      met: value <= GOAL_RATIO
    })
    return [
      figure('add one window', ratio(large.addMs, small.addMs), `${ms(large.addMs)} vs ${ms(small.addMs)}`),
      figure('listAlerts time', ratio(large.pageMs, small.pageMs), `${ms(large.pageMs)} vs ${ms(small.pageMs)}`),
      figure('listAlerts payload', ratio(large.pageBytes, small.pageBytes), `${int(large.pageBytes)} vs ${int(small.pageBytes)} bytes`)
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
