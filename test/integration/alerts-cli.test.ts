// The CLI's alerts: `eventwatch sync` judges each pass by the app's rules into the same history
// and, in a terminal, prints a line when an alert fires or resolves; `eventwatch export alerts`
// prints that history as JSON or CSV (one row per transition). The terminal is a real one:
// util-linux `script` runs the command on a pseudo-terminal, so isTTY is true as for a person.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSimulator, type RunningSimulator } from '../../src/main/core/simulator/server'
import { openDatabase } from '../../src/main/core/store/db'
import { setThresholds } from '../../src/main/core/store/settings'
import type { Alert } from '../../src/shared/alerts'
import { CLI_BIN, cliEnv, homeEnv, ROOT, simulatorFlags } from '../support/cli'

let home: string
let sim: RunningSimulator
/** The simulated world's clock: it stands still between runs unless the test moves it. */
let simNow = Date.now()

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-alerts-cli-'))
  sim = await startSimulator({
    clock: () => simNow,
    liveSessions: 2,
    endedSessions: 0,
    viewersPerSession: 40,
    churnSessions: false,
    randomIncidents: false
  })
})
afterAll(async () => {
  await sim.close()
  rmSync(home, { recursive: true, force: true })
})

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function run(args: string[], options: { terminal?: boolean } = {}): Promise<Run> {
  const env = cliEnv({ ...homeEnv(home), EVENTWATCH_CLIENT_SECRET: sim.credentials.clientSecret })
  const argv = [process.execPath, CLI_BIN, ...args]
  const quoted = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ')
  const child = options.terminal
    ? spawn('script', ['-qec', quoted, '/dev/null'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(argv[0] as string, argv.slice(1), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()))
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()))
  return new Promise((r) => child.on('close', (code) => r({ code, stdout, stderr })))
}

const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*[A-Za-z]`, 'g')

/** On a terminal stdout and stderr share the pseudo-terminal: the alert lines, wherever they are. */
const alertLines = (r: Run): string[] =>
  `${r.stdout}\n${r.stderr}`
    .split(/\r?\n|\r/)
    .map((l) => l.replace(ANSI, '').trim())
    .filter((l) => / (ALERT|RESOLVED)\b/.test(l))

describe('alerts from the CLI', () => {
  it('sync records alerts, prints fire and resolve lines in a terminal only, and export prints the history', async () => {
    const file = join(home, 'cache.db')
    // Levels well below the simulated baseline (96–99.6), so recovery is certain.
    const setup = openDatabase(file)
    setThresholds(setup, { warning: 80, critical: 70 })
    setup.close()
    const sync = (terminal: boolean) => run(['sync', '--once', ...simulatorFlags(sim), '--db', file], { terminal })
    const [first, second] = sim.world.sessions.filter((s) => !s.hasEnded).map((s) => s.eventSessionId) as [string, string]

    const a = await sync(true)
    expect(a.code, a.stderr + a.stdout).toBe(0)
    expect(alertLines(a)).toEqual([])

    // Not a terminal: the alert is recorded, but no line.
    sim.faults.incident(first, { drop: 25, minutes: 60 })
    const b = await sync(false)
    expect(b.code, b.stderr).toBe(0)
    expect(alertLines(b)).toEqual([])

    sim.faults.incident(second, { drop: 25, minutes: 60 })
    const c = await sync(true)
    expect(c.code, c.stderr + c.stdout).toBe(0)
    const fired = alertLines(c)
    expect(fired).toHaveLength(2)
    expect(fired.find((l) => l.includes(second))).toMatch(/ ALERT warning \[reliability-falling\] Reliability fell \d+(\.\d)? points within 5 min/)
    expect(fired.find((l) => l.includes(first))).toMatch(/ ALERT warning \[reliability-below\] Reliability \d+(\.\d)?, below the warning level 80/)

    sim.faults.recover(first).recover(second)
    simNow += 5 * 60_000 // the simulated sessions climb back
    expect(alertLines(await sync(true))).toEqual([]) // recovery: 1 poll of 2
    const e = await sync(true)
    const resolved = alertLines(e)
    expect(resolved.every((l) => / RESOLVED \[/.test(l))).toBe(true)
    expect(resolved).toHaveLength(3)

    // The history, as JSON: every alert with its transitions.
    const json = await run(['export', 'alerts', '--db', file])
    expect(json.code, json.stderr).toBe(0)
    const alerts = JSON.parse(json.stdout) as Alert[]
    // In the order they opened (in one poll: the rules' order).
    expect(alerts.map((x) => [x.rule, x.eventSessionId, x.state])).toEqual([
      ['reliability-below', first, 'resolved'],
      ['reliability-falling', first, 'resolved'],
      ['reliability-falling', second, 'resolved']
    ])
    expect(alerts[0]?.transitions.map((t) => t.state)).toEqual(['pending', 'firing', 'resolved'])
    expect(alerts[0]).toMatchObject({ connectionName: expect.any(String), eventName: expect.any(String) })
    expect(alerts[0]?.transitions[1]?.value).toBeLessThan(80)

    // As CSV: one row per transition.
    const csv = await run(['export', 'alerts', '--db', file, '--format', 'csv'])
    expect(csv.code, csv.stderr).toBe(0)
    const rows = csv.stdout.trim().split(/\r?\n/)
    expect(rows[0]).toBe('alertId,rule,connectionId,connectionName,eventSessionId,eventName,site,siteName,summary,at,state,severity,value,note,endKind')
    expect(rows).toHaveLength(1 + 2 + 3 + 2)
    expect(rows.filter((r) => r.includes(',resolved,'))).toHaveLength(3)
  }, 120_000)

  it('export alerts says so when there is no cache', async () => {
    const result = await run(['export', 'alerts', '--db', join(home, 'missing.db')])
    expect(result.code).not.toBe(0)
    expect(result.stderr).toMatch(/no cache at/)
  }, 60_000)
})
