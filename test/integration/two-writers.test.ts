// Two writers on one cache (the app's thread and the cache writer's): a transaction that reads
// and then writes waits for the other's commit instead of failing with "database is locked"
// (SQLITE_BUSY_SNAPSHOT, which a deferred transaction gets at once, without waiting).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { openDatabase, type Db } from '../../src/main/core/store/db'

const open: Db[] = []
let dir = ''
afterEach(() => {
  for (const db of open.splice(0)) db.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

it('a read-then-write transaction holds the write lock from its start, so nothing commits between its read and its write', () => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-two-writers-'))
  const file = join(dir, 'cache.db')
  const a = openDatabase(file)
  const b = openDatabase(file)
  open.push(a, b)
  b.pragma('busy_timeout = 0') // B runs on this same thread here: it must not wait for A
  a.exec('CREATE TABLE counter (n INTEGER)')
  a.exec('INSERT INTO counter VALUES (0)')
  let otherWriter: unknown = null
  const readThenWrite = (): void => {
    const { n } = a.prepare('SELECT n FROM counter').get() as { n: number }
    try {
      b.exec('UPDATE counter SET n = n + 100') // the other writer tries to commit in between
    } catch (error) {
      otherWriter = error
    }
    a.prepare('UPDATE counter SET n = ?').run(n + 1)
  }
  // The cache's transactions: B had to wait (here it gives up at once), A completes.
  a.transaction(readThenWrite)()
  expect(String(otherWriter)).toMatch(/locked|busy/i)
  expect(a.prepare('SELECT n FROM counter').get()).toEqual({ n: 1 })
  // A deferred BEGIN, better-sqlite3's own default: B commits in between, and A's write fails.
  otherWriter = null
  expect(() => a.transaction(readThenWrite).deferred()).toThrow(/locked/i)
  expect(otherWriter).toBeNull()
  expect(a.prepare('SELECT n FROM counter').get()).toEqual({ n: 101 })
})
