// The layering rule in eslint.config.js (DESIGN.md: shared ← core ← desktop | web | cli;
// renderer → shared only; electron only in desktop, src/main/index.ts and preload) really fires,
// and so do the layers inside core (api ← store ← sync ← alerts ← app, beside them connections,
// webhooks and simulator, below them net, secrets, health and paths.ts) and the renderer
// (lib ← components). Files are linted from text under made-up paths: they need not exist; the
// last test makes a real folder, as a newcomer would, and lints it as `npm run lint` does.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const RULE = 'layering/imports'

let eslint: ESLint

beforeAll(() => {
  eslint = new ESLint({ cwd: root })
})

/** Layering messages for `code` linted as if it were the file at `file` (project-relative). */
async function layering(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) })
  expect(result, `no lint result for ${file}`).toBeDefined()
  const fatal = result!.messages.filter((m) => m.fatal)
  expect(fatal, `parse error in ${file}`).toEqual([])
  return result!.messages.filter((m) => m.ruleId === RULE && m.severity === 2).map((m) => m.message)
}

const svelte = (script: string): string =>
  `<script lang="ts">\n${script}\n</script>\n\n<p>{String(x)}</p>\n`

describe('the layering rule is on for src/', () => {
  it.each(['src/shared/x.ts', 'src/main/core/x.ts', 'src/renderer/src/App.svelte', 'src/preload/index.ts'])(
    '%s',
    async (file) => {
      const config = await eslint.calculateConfigForFile(path.join(root, file))
      const setting = config.rules?.[RULE]
      expect(Array.isArray(setting) ? setting[0] : setting).toBe(2)
    },
  )
})

describe('forbidden imports are errors', () => {
  const cases: Array<[string, string, RegExp]> = [
    // electron outside desktop / main entry / preload
    ['src/main/core/paths.ts', "import { app } from 'electron'\nexport const x = app", /electron/],
    ['src/main/core/api/x.ts', "import type { BrowserWindow } from 'electron'\nexport type X = BrowserWindow", /electron/],
    ['src/main/core/paths.ts', "export async function x() { return import('electron') }", /electron/],
    ['src/main/web/x.ts', "import { shell } from 'electron'\nexport const x = shell", /electron/],
    ['src/main/cli/x.ts', "import { app } from 'electron'\nexport const x = app", /electron/],
    ['src/shared/x.ts', "import { app } from 'electron'\nexport const x = app", /electron/],
    ['src/renderer/src/lib/x.svelte.ts', "import { ipcRenderer } from 'electron'\nexport const x = ipcRenderer", /electron/],
    // Node built-ins where there is no Node
    ['src/shared/x.ts', "import fs from 'node:fs'\nexport const x = fs", /Node built-in/],
    ['src/shared/x.ts', "import { join } from 'path'\nexport const x = join", /Node built-in/],
    ['src/shared/x.ts', "import { createHash } from 'crypto'\nexport const x = createHash", /Node built-in/],
    ['src/shared/x.ts', "export { readFile } from 'fs/promises'", /Node built-in/],
    ['src/renderer/src/lib/x.ts', "import http from 'http'\nexport const x = http", /Node built-in/],
    ['src/renderer/src/Thing.svelte', svelte("import { readFile } from 'fs'\nconst x = readFile"), /Node built-in/],
    ['src/preload/index.ts', "import { readFileSync } from 'node:fs'\nexport const x = readFileSync", /Node built-in/],
    // relative imports reaching a higher or foreign layer
    ['src/renderer/src/x.ts', "import x from '../../main/core/store/db'\nexport default x", /reaches src\/main\/core\/store\/db/],
    ['src/renderer/src/components/Thing.svelte', svelte("import { x } from '../../../main/web/server'"), /reaches src\/main/],
    ['src/renderer/src/x.ts', "import x from '../../preload/index'\nexport default x", /reaches src\/preload/],
    ['src/main/core/paths.ts', "import { x } from '../desktop/window'\nexport { x }", /reaches src\/main\/desktop/],
    ['src/main/core/app/x.ts', "export * from '../../web/server'", /reaches src\/main\/web/],
    ['src/main/core/sync/x.ts', "import { main } from '../../cli/index'\nexport { main }", /reaches src\/main\/cli/],
    ['src/main/core/paths.ts', "import '../index'", /reaches src\/main\/index/],
    ['src/shared/x.ts', "import { x } from '../main/core/paths'\nexport { x }", /reaches src\/main\/core/],
    ['src/shared/x.ts', "import type { X } from '../renderer/src/lib/client'\nexport type Y = X", /reaches src\/renderer/],
    ['src/preload/index.ts', "import { x } from '../main/core/paths'\nexport { x }", /reaches src\/main\/core/],
    ['src/preload/index.ts', "import { x } from '../renderer/src/lib/client'\nexport { x }", /reaches src\/renderer/],
    // inside core: imports point down api ← store ← sync ← alerts ← app, in every form
    ['src/main/core/store/x.ts', "import { engine } from '../alerts/engine'\nexport { engine }", /reaches src\/main\/core\/alerts; src\/main\/core\/store may only import from core's api, net/],
    ['src/main/core/api/x.ts', "import { db } from '../store/db'\nexport { db }", /reaches src\/main\/core\/store; src\/main\/core\/api may only/],
    ['src/main/core/api/x.ts', "export async function x() { return import('../sync/poller') }", /reaches src\/main\/core\/sync/],
    ['src/main/core/sync/x.ts', "import { service } from '../connections/service'\nexport { service }", /reaches src\/main\/core\/connections; src\/main\/core\/sync/],
    ['src/main/core/connections/x.ts', "export * from '../sync/poller'", /reaches src\/main\/core\/sync; src\/main\/core\/connections/],
    ['src/main/core/alerts/x.ts', "import { dispatch } from '../app/dispatch'\nexport { dispatch }", /^'\.\.\/app\/dispatch' reaches src\/main\/core\/app; src\/main\/core\/alerts may only import from core's api, store, connections, sync, webhooks, net, secrets, health, paths \(DESIGN\.md layering\)/],
    ['src/main/core/alerts/x.ts', "import type { Dispatch } from '../app/dispatch'\nexport type X = Dispatch", /reaches src\/main\/core\/app/],
    ['src/main/core/alerts/x.ts', "export type X = import('../app/types').AppContext", /reaches src\/main\/core\/app/],
    ['src/main/core/alerts/x.ts', "import { world } from '../simulator/world'\nexport { world }", /reaches src\/main\/core\/simulator/],
    ['src/main/core/store/queries/x.ts', "import { poll } from '../../sync/poller'\nexport { poll }", /reaches src\/main\/core\/sync; src\/main\/core\/store/],
    ['src/main/core/health/x.ts', "import { x } from '../api/schemas'\nexport { x }", /src\/main\/core\/health may import no other part of core/],
    ['src/main/core/net/x.ts', "import { x } from '../paths'\nexport { x }", /reaches src\/main\/core\/paths; src\/main\/core\/net/],
    ['src/main/core/api/x.ts', "import { x } from '../simulator/server'\nexport { x }", /reaches src\/main\/core\/simulator/],
    // webhooks and report have ranks of their own: neither reaches up into app
    ['src/main/core/webhooks/x.ts', "import type { EventHub } from '../app/event-hub'\nexport type X = EventHub", /reaches src\/main\/core\/app; src\/main\/core\/webhooks may only import from core's api, store, connections/],
    ['src/main/core/report/x.ts', "import type { SessionReport } from '../app/session-report'\nexport type X = SessionReport", /reaches src\/main\/core\/app; src\/main\/core\/report may only import from core's net/],
    ['src/main/core/report/x.ts', "import { listAlerts } from '../store/alerts'\nexport { listAlerts }", /reaches src\/main\/core\/store; src\/main\/core\/report/],
    ['src/main/core/connections/x.ts', "import { x } from '../webhooks/service'\nexport { x }", /reaches src\/main\/core\/webhooks; src\/main\/core\/connections/],
    // fanout (other servers' pushes) sits beside alerts: it reaches alerts, never app; alerts never reach it
    ['src/main/core/fanout/x.ts', "import type { Monitor } from '../app/monitor'\nexport type X = Monitor", /reaches src\/main\/core\/app; src\/main\/core\/fanout may only import from core's store, alerts, net/],
    ['src/main/core/alerts/x.ts', "import { ServerRelay } from '../fanout/server-relay'\nexport const x = ServerRelay", /reaches src\/main\/core\/fanout; src\/main\/core\/alerts may only/],
    ['src/main/core/fanout/x.ts', "import { Poller } from '../sync/poller'\nexport const x = Poller", /reaches src\/main\/core\/sync; src\/main\/core\/fanout/],
    // the lease keeper (sync, rank 3) takes the leases from the store's interface, never the server's pollers or a driver
    ['src/main/core/sync/lease-keeper.ts', "import { PollerGroup } from '../app/pollers'\nexport { PollerGroup }", /reaches src\/main\/core\/app; src\/main\/core\/sync may only import from core's api, store/],
    ['src/main/core/sync/lease-keeper.ts', "import pg from 'pg'\nexport const x = pg", /^'pg' may only be imported in src\/main\/core\/store/],
    // every folder has a rank: a folder with no row fails, whatever it imports
    ['src/main/core/newcomer/x.ts', "import { startAppCore } from '../app/start'\nexport { startAppCore }", /^src\/main\/core\/newcomer has no rank: add a row for 'newcomer' to INNER_LAYERS\.core in eslint\.config\.js/],
    ['src/main/core/newcomer/deep/x.ts', 'export const x = 1', /^src\/main\/core\/newcomer has no rank/],
    ['src/main/core/starter.ts', "import { startAppCore } from './app/start'\nexport { startAppCore }", /^src\/main\/core\/starter\.ts has no rank: add a row for 'starter' to INNER_LAYERS\.core/],
    ['src/renderer/src/pages/Thing.svelte', svelte('const x = 1'), /^src\/renderer\/src\/pages has no rank: add a row for 'pages' to INNER_LAYERS\.renderer/],
    ['src/main/tui/x.ts', "import { startAppCore } from '../core/app/start'\nexport { startAppCore }", /^src\/main\/tui is in no layer: add it to layerOf and POLICY in eslint\.config\.js/],
    // the SQLite driver belongs to the store alone, types included
    ['src/main/desktop/native-binding.ts', "import type Database from 'better-sqlite3'\nexport type X = Database.Database", /^'better-sqlite3' may only be imported in src\/main\/core\/store\/\*\*/],
    ['src/main/core/app/types.ts', "import type { Database } from 'better-sqlite3'\nexport type Db = Database", /^'better-sqlite3' may only be imported in src\/main\/core\/store/],
    ['src/main/core/storage-faults.ts', "import { SqliteError } from 'better-sqlite3'\nexport const x = SqliteError", /^'better-sqlite3' may only be imported in src\/main\/core\/store/],
    ['src/main/core/alerts/x.ts', "export type X = import('better-sqlite3').Statement", /^'better-sqlite3' may only/],
    ['src/main/cli/x.ts', "export async function open() { return import('better-sqlite3') }", /^'better-sqlite3' may only/],
    ['src/main/web/x.ts', "const Database = require('better-sqlite3')\nexport const x = Database", /^'better-sqlite3' may only/],
    ['src/main/core/app/x.ts', "import Database from 'better-sqlite3/lib/database'\nexport const x = Database", /^'better-sqlite3\/lib\/database' may only/],
    // so does PostgreSQL's
    ['src/main/core/app/x.ts', "import pg from 'pg'\nexport const x = pg", /^'pg' may only be imported in src\/main\/core\/store/],
    ['src/main/web/x.ts', "import type { Pool } from 'pg'\nexport type X = Pool", /^'pg' may only/],
    ['src/main/cli/x.ts', "export async function open() { return import('pg/lib/client') }", /^'pg\/lib\/client' may only/],
    // inside the renderer: lib/ never imports components/
    ['src/renderer/src/lib/stores/x.svelte.ts', "import { words } from '../../components/alerts/alert-words'\nexport { words }", /reaches src\/renderer\/src\/components; src\/renderer\/src\/lib may import no other part of renderer/],
    ['src/renderer/src/lib/x.ts', "import type { Row } from '../components/live/Row.svelte'\nexport type X = Row", /reaches src\/renderer\/src\/components/],
  ]

  it.each(cases)('%s: %s', async (file, code, message) => {
    const errors = await layering(file, code)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatch(message)
  })
})

describe('allowed imports pass', () => {
  const cases: Array<[string, string]> = [
    ['src/main/desktop/x.ts', "import { app } from 'electron'\nexport const x = app"],
    ['src/main/index.ts', "import { app } from 'electron'\nimport { x } from './desktop/app'\nexport { app, x }"],
    ['src/preload/index.ts', "import { contextBridge } from 'electron'\nimport { x } from '../shared/contract'\nexport { contextBridge, x }"],
    ['src/shared/x.ts', "import { z } from 'zod'\nimport { ok } from './result'\nexport const x = [z, ok]"],
    ['src/main/core/store/x.ts', "import fs from 'node:fs'\nimport { ok } from '../../../shared/result'\nimport { db } from './db'\nexport const x = [fs, ok, db]"],
    ['src/main/core/store/x.ts', "import Database from 'better-sqlite3'\nexport const x = Database"],
    ['src/main/core/store/sqlite/x.ts', "import type { Statement } from 'better-sqlite3'\nexport type X = Statement"],
    ['src/main/core/store/postgres/x.ts', "import pg from 'pg'\nexport const x = pg"],
    // a package merely named like the driver is not it
    ['src/main/core/app/x.ts', "import { x as y } from 'pg-format-like'\nexport const x = y"],
    ['src/main/cli/x.ts', "import { serve } from '../web/server'\nimport { start } from '../core/app/start'\nimport path from 'node:path'\nexport const x = [serve, start, path]"],
    ['src/main/web/x.ts', "import http from 'node:http'\nimport { x as y } from '../core/paths'\nexport const x = [http, y]"],
    ['src/renderer/src/lib/x.ts', "import type { Domain } from '../../../shared/domain'\nimport { mount } from 'svelte'\nexport const x: Domain | typeof mount = mount"],
    ['src/renderer/src/Thing.svelte', svelte("import { format } from '../../shared/format'\nimport Row from './components/Row.svelte'\nconst x = [format, Row]")],
    // inside core: app composes everything; each part reaches down, and into its own tree
    [
      'src/main/core/app/x.ts',
      ['api/client', 'store/db', 'sync/poller', 'connections/service', 'alerts/engine', 'simulator/server', 'net/read-body', 'secrets/keychain', 'health/scale', 'paths']
        .map((to, i) => `import * as m${i} from '../${to}'`)
        .join('\n') + '\nexport const x = [m0, m1, m2, m3, m4, m5, m6, m7, m8, m9]',
    ],
    ['src/main/core/alerts/x.ts', "import { db } from '../store/db'\nimport { NotFound } from '../connections/errors'\nimport type { Pass } from '../sync/sync-pass'\nexport const x: Pass | [typeof db, typeof NotFound] = [db, NotFound]"],
    ['src/main/core/store/x.ts', "import { sessionSchema } from '../api/schemas'\nimport { scale } from '../health/x'\nimport { x as p } from '../paths'\nexport const x = [sessionSchema, scale, p]"],
    ['src/main/core/store/queries/x.ts', "import { db } from '../db'\nimport { sql } from './sql'\nexport const x = [db, sql]"],
    ['src/main/core/sync/x.ts', "import { client } from '../api/client'\nimport { sessions } from '../store/sessions'\nexport const x = [client, sessions]"],
    ['src/main/core/sync/lease-keeper.ts', "import type { LeaseStore } from '../store/interface/leases'\nimport { abortable } from '../net/abort'\nexport type X = LeaseStore | typeof abortable"],
    ['src/main/core/connections/x.ts', "import { db } from '../store/db'\nimport { keychain } from '../secrets/keychain'\nexport const x = [db, keychain]"],
    ['src/main/core/simulator/x.ts', "import { readBody } from '../net/read-body'\nexport const x = readBody"],
    ['src/main/core/api/x.ts', "import { readBody } from '../net/read-body'\nimport { retry } from './retry'\nexport const x = [readBody, retry]"],
    ['src/main/core/app/x.ts', "import { reportHtml } from '../report/report-html'\nimport { WebhookService } from '../webhooks/service'\nexport const x = [reportHtml, WebhookService]"],
    ['src/main/core/alerts/x.ts', "import { enqueueAlertEvents } from '../webhooks/enqueue'\nexport const x = enqueueAlertEvents"],
    ['src/main/core/fanout/x.ts', "import { announce } from '../alerts/page'\nimport type { Store } from '../store/interface/store'\nimport { sleep } from '../net/abort'\nexport const x: Store | [typeof announce, typeof sleep] = [announce, sleep]"],
    ['src/main/core/app/x.ts', "import { ServerRelay } from '../fanout/server-relay'\nexport const x = ServerRelay"],
    ['src/main/core/webhooks/x.ts', "import { ConnectionError } from '../connections/errors'\nimport { classifyNetworkError } from '../api/network-errors'\nimport type { Db } from '../store/db'\nexport const x: Db | [typeof ConnectionError, typeof classifyNetworkError] = [ConnectionError, classifyNetworkError]"],
    ['src/main/core/report/x.ts', "import { healthOf } from '../health/health'\nimport type { SessionReport } from './session-report-shape'\nexport const x: SessionReport | typeof healthOf = healthOf"],
    // inside the renderer: components use lib, lib uses lib
    ['src/renderer/src/components/Thing.svelte', svelte("import { nav } from '../lib/stores/nav.svelte'\nconst x = nav")],
    ['src/renderer/src/components/live/x.ts', "import { clock } from '../../lib/stores/clock.svelte'\nimport { y } from '../history/day-range'\nexport const x = [clock, y]"],
    ['src/renderer/src/lib/stores/x.svelte.ts', "import { client } from '../client'\nimport { nav } from './nav.svelte'\nexport const x = [client, nav]"],
  ]

  it.each(cases)('%s', async (file, code) => {
    expect(await layering(file, code)).toEqual([])
  })
})

describe('every folder has a rank', () => {
  // The hole that was: a folder nobody listed could import anything, app/start included.
  it('a new folder under src/main/core without a row fails lint, naming the folder and asking for its row', async () => {
    const dir = mkdtempSync(path.join(root, 'src/main/core/unranked-'))
    const folder = path.basename(dir)
    try {
      writeFileSync(path.join(dir, 'starter.ts'), "import { startAppCore } from '../app/start'\nexport const starter = startAppCore\n")
      const results = await eslint.lintFiles([dir])
      expect(results.map((r) => path.relative(dir, r.filePath))).toEqual(['starter.ts'])
      const errors = results[0]!.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`)
      expect(errors).toEqual([
        `${RULE}: src/main/core/${folder} has no rank: add a row for '${folder}' to INNER_LAYERS.core in eslint.config.js, with the parts it may import (DESIGN.md layering).`,
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
