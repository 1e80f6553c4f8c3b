// 20 viewer lists of about 5,000 viewers (the simulator's, seed 20240611), pages of 500, written
// through PostgreSQL's viewer writer (`pgViewerListStore`: COPY, a transaction a page) and through
// SQLite's in-thread writer into a fresh cache file: the same pages, the same way a poller hands
// them over. Used by the team part of `npm run bench` (team.ts) and by pg-viewer-writes.ts, which
// compares the writer with the other designs considered.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { upsertConnection } from '../../src/main/core/store/connections'
import { openDatabase } from '../../src/main/core/store/db'
import { openPgStore } from '../../src/main/core/store/postgres/pg-store'
import { pgViewerListStore } from '../../src/main/core/store/postgres/viewer-list-store'
import { storeSessionList } from '../../src/main/core/store/sessions'
import { inThreadViewerStore, type ViewerListStore } from '../../src/main/core/store/viewer-store'
import type { parsedLists } from './store'

export const PAGE = 500
export type Lists = ReturnType<typeof parsedLists>

/** As a real server: durable commits (the test cluster turns them off), for startPostgres. */
export const DURABLE = { fsync: 'on', synchronous_commit: 'on', full_page_writes: 'on' }

export interface Run {
  ms: number
  /** CPU of this process and of the database's server processes, user and system: on a loaded
   *  machine it moves much less than the wall clock. */
  cpuMs: number
  /** Of that, this process's: what the server's event loop pays. */
  ownCpuMs: number
  walBytes: number
}

const TICK_MS = 1000 / 100 // USER_HZ on Linux

/** CPU (ms) of each server process connected to `database` so far. */
async function backendCpu(admin: pg.Pool, database: string): Promise<Map<number, number>> {
  const pids = (await admin.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database])).rows.map((r) => r.pid)
  const cpu = new Map<number, number>()
  for (const pid of pids) {
    try {
      // Fields 14 and 15 of /proc/PID/stat (after the command in parentheses): utime, stime.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_MS)
    } catch {
      // gone meanwhile
    }
  }
  return cpu
}

/** Times `work`: wall clock, and CPU here and in `database`'s server processes. */
export async function timed(admin: pg.Pool, database: string | null, work: () => Promise<void>): Promise<Omit<Run, 'walBytes'>> {
  const before = database ? await backendCpu(admin, database) : new Map<number, number>()
  const cpu = process.cpuUsage()
  const started = performance.now()
  await work()
  const ms = performance.now() - started
  const own = process.cpuUsage(cpu)
  const after = database ? await backendCpu(admin, database) : new Map<number, number>()
  let server = 0
  for (const [pid, used] of after) server += used - (before.get(pid) ?? 0)
  const ownCpuMs = (own.user + own.system) / 1000
  return { ms, cpuMs: ownCpuMs + server, ownCpuMs }
}

export async function walSince(client: pg.ClientBase, before: string): Promise<number> {
  return Number((await client.query<{ bytes: string }>('SELECT pg_current_wal_lsn() - $1::pg_lsn AS bytes', [before])).rows[0]!.bytes)
}

/** Every list through a ViewerListStore, a page at a time, as a poller hands them over. */
async function throughWriter(writer: ViewerListStore, lists: Lists, now: number): Promise<void> {
  for (const list of lists) {
    const staged = writer.begin('bench', list.id, now)
    for (let at = 0; at < list.viewers.length; at += PAGE) await staged.add(list.viewers.slice(at, at + PAGE))
    await staged.commit(Math.ceil(list.viewers.length / PAGE), now)
  }
}

const CONNECTION = { id: 'bench', name: 'bench', baseUrl: 'http://x', authUrl: 'http://x', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false }

/** The lists through `pgViewerListStore` into a fresh database `bench_writer` of the cluster
 *  `admin` reaches (`url`: its `postgres` database). */
export async function pgWriterRun(url: string, admin: pg.Pool, lists: Lists, now: number): Promise<Run> {
  await admin.query('DROP DATABASE IF EXISTS bench_writer WITH (FORCE)')
  await admin.query('CREATE DATABASE bench_writer')
  const store = await openPgStore(url.replace(/\/postgres$/, '/bench_writer'))
  try {
    await store.withTransaction(async (tx) => {
      await tx.connections.upsert(CONNECTION, now)
      await tx.sessions.storeList('bench', lists.map((l) => l.record) as never, now)
    })
    await admin.query('CHECKPOINT')
    const wal = (await admin.query<{ lsn: string }>('SELECT pg_current_wal_lsn() AS lsn')).rows[0]!.lsn
    const writes = pgViewerListStore(store, { purgeAfterWrites: false })
    const times = await timed(admin, 'bench_writer', () => throughWriter(writes, lists, now))
    await writes.close()
    const client = await admin.connect()
    try {
      return { ...times, walBytes: await walSince(client, wal) }
    } finally {
      client.release()
    }
  } finally {
    await store.close()
  }
}

/** The lists through SQLite's in-thread writer into a fresh cache file in `dir`. */
export async function sqliteWriterRun(admin: pg.Pool, dir: string, round: number, lists: Lists, now: number): Promise<Run> {
  const db = openDatabase(join(dir, `cache-${round}.db`))
  try {
    upsertConnection(db, CONNECTION)
    storeSessionList(db, 'bench', lists.map((l) => l.record) as never, now)
    const writes = inThreadViewerStore(db)
    const times = await timed(admin, null, () => throughWriter(writes, lists, now))
    await writes.close()
    return { ...times, walBytes: Number.NaN }
  } finally {
    db.close()
  }
}
