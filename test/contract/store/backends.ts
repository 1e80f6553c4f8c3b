// The backends the store contract runs against. Each test file of this folder describes one
// concern through `eachBackend`, against the Store interface only; a backend added here (the
// PostgreSQL store of docs/scaling-plan.md) must pass every one of them unchanged.
import Database from 'better-sqlite3'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe } from 'vitest'
import type { ViewerRecord } from '../../../src/main/core/api/schemas'
import { openDatabase } from '../../../src/main/core/store/db'
import type { Store } from '../../../src/main/core/store/interface/store'
import { openSqliteStore } from '../../../src/main/core/store/sqlite/sqlite-store'
import { storeViewerList } from '../../../src/main/core/store/viewers'

export interface StoreUnderTest {
  store: Store
  /** A second store on the same data, as another process (or server) opens it. */
  openOther(): Promise<Store>
  /** A complete viewer list, as the viewer writer stores it (lists are written outside the Store). */
  seedViewerList(connectionId: string, eventSessionId: string, viewers: ViewerRecord[], fetchedAt: number): Promise<void>
  /** Stamps the data with another schema version, as a newer (or older) build would leave it. */
  stampSchema(version: number): Promise<void>
}

interface Backend {
  name: string
  open(): Promise<{ subject: StoreUnderTest; close(): Promise<void> }>
}

/** SQLite on a real temporary file, as the app opens its cache. */
const sqlite: Backend = {
  name: 'sqlite',
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'eventwatch-store-contract-'))
    const file = join(dir, 'cache.db')
    const stores: Store[] = [openSqliteStore(file)]
    const subject: StoreUnderTest = {
      store: stores[0]!,
      async openOther() {
        const other = openSqliteStore(file)
        stores.push(other)
        return other
      },
      async seedViewerList(connectionId, eventSessionId, viewers, fetchedAt) {
        const db = openDatabase(file)
        try {
          storeViewerList(db, connectionId, eventSessionId, viewers, fetchedAt, 1)
        } finally {
          db.close()
        }
      },
      async stampSchema(version) {
        // As another build's process would: its own connection, through SQLite.
        const db = new Database(file)
        try {
          db.pragma(`user_version = ${version}`)
        } finally {
          db.close()
        }
      }
    }
    return {
      subject,
      async close() {
        for (const store of stores) await store.close()
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
}

const BACKENDS: Backend[] = [sqlite]

/** Describes `concern` once per backend; `subject()` is a fresh, empty store for each test. */
export function eachBackend(concern: string, tests: (subject: () => StoreUnderTest) => void): void {
  for (const backend of BACKENDS) {
    describe(`${backend.name} store: ${concern}`, () => {
      let opened: Awaited<ReturnType<Backend['open']>> | undefined
      beforeEach(async () => {
        opened = await backend.open()
      })
      afterEach(async () => {
        await opened?.close()
        opened = undefined
      })
      tests(() => {
        if (!opened) throw new Error('no store: subject() is for inside a test')
        return opened.subject
      })
    })
  }
}
