// A team server for the tests: the real core (demo data, an incident on cue, a real SQLite file)
// behind the real host over HTTPS on loopback, with a throwaway certificate from a private CA,
// users made as `eventwatch users add` makes them, and a client that trusts that CA.
import { X509Certificate } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Agent, fetch as undiciFetch } from 'undici'
import type { AppCore } from '../../src/main/core/app/types'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { TeamUsers } from '../../src/main/core/team/users'
import { teamTablesOnDb } from '../../src/main/core/store/sqlite/team-tables'
import { startWebHost, type WebHost } from '../../src/main/web/server'
import type { UserRole } from '../../src/shared/team'
import { privateCa, type PrivateCa } from './corporate-network'
import { readServerSentEvents } from '../../src/main/core/net/sse-reader'
import { asAnotherProgram } from './another-program'

/** A stand-in for the built renderer: the API tests need its index page only. */
export function stubRenderer(dir: string): string {
  const rendererDir = join(dir, 'renderer')
  mkdirSync(rendererDir, { recursive: true })
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><title>Eventwatch</title><div id="app"></div>')
  return rendererDir
}

/** A write on the cache file by another program, while this test's core may run on it. */
async function onTheFile<T>(dbFile: string, write: (db: Db) => Promise<T>): Promise<T> {
  const db = openDatabase(dbFile)
  try {
    return await asAnotherProgram(db, () => write(db))
  } finally {
    db.close()
  }
}

/** Adds a user to the cache file, as the CLI does on the server; answers their token. */
export async function addUser(dbFile: string, name: string, role: UserRole): Promise<string> {
  return onTheFile(dbFile, async (db) => (await new TeamUsers(teamTablesOnDb(db)).add(name, role)).token)
}

export async function removeUser(dbFile: string, name: string): Promise<void> {
  await onTheFile(dbFile, (db) => new TeamUsers(teamTablesOnDb(db)).remove(name))
}

export function throwawayCertificate(dir: string): PrivateCa & { fingerprint: string } {
  const ca = privateCa(dir, 'noc.eventwatch.test')
  return { ...ca, fingerprint: new X509Certificate(ca.cert).fingerprint256 }
}

export async function startTeamHost(core: AppCore, tls: PrivateCa, rendererDir: string, port = 0, heartbeatMs?: number): Promise<WebHost> {
  return startWebHost({ core, rendererDir, port, team: { host: '127.0.0.1', tls: { cert: tls.cert, key: tls.key } }, ...(heartbeatMs ? { heartbeatMs } : {}) })
}

/** fetch that trusts the test CA (as a browser or desktop configured for it would). */
export function trustingFetch(caFile: string): (url: string, init?: RequestInit) => Promise<Response> {
  const dispatcher = new Agent({ connect: { ca: readFileSync(caFile, 'utf8') } })
  return (url, init = {}) => undiciFetch(url, { ...init, dispatcher } as never) as unknown as Promise<Response>
}

/** A push as a stream received it; `at`: when it was read (Date.now()). */
export interface StreamedEvent {
  event: string
  data: unknown
  at: number
}

/** An open event stream, as a page keeps one: every push in order, until closed. */
export async function openStream(
  fetcher: (url: string, init?: RequestInit) => Promise<Response>,
  url: string,
  headers: Record<string, string>
): Promise<{ events: StreamedEvent[]; close: () => void; ended: Promise<void> }> {
  const abort = new AbortController()
  const response = await fetcher(url, { headers, signal: abort.signal })
  if (!response.ok || !response.body) throw new Error(`event stream: HTTP ${response.status}`)
  const events: StreamedEvent[] = []
  const ended = (async () => {
    for await (const e of readServerSentEvents(response.body!)) events.push({ event: e.event, data: JSON.parse(e.data), at: Date.now() })
  })().catch(() => undefined)
  return { events, close: () => abort.abort(), ended }
}
