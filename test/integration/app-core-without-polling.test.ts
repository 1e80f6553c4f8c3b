// The core the CLI starts for one change (issue 25, item 1): the same core, built the same way,
// with `polling: false` — no poller and no demo simulator, yet every request, push and audit
// entry as ever; and `request`/`on` typed by the contract, as a page's AppClient has them.
import { join } from 'node:path'
import { userInfo } from 'node:os'
import { afterAll, describe, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import type { AppSettings } from '../../src/shared/settings'
import { tempDirs } from '../support/temp-dirs'

const dbFile = join(tempDirs('eventwatch-no-polling-')(), 'cache.db')
let core: AppCore | undefined
afterAll(() => core?.close())

describe('a core without polling', () => {
  it('polls nothing, not even the demo, and answers, pushes and audits as the one core does', async () => {
    core = await startAppCore({ db: dbFile, polling: false })
    const status = await core.request('getStatus', {})
    expect(status.ok && status.value.connections).toEqual([])
    const board = await core.request('listLiveSessions', {})
    expect(board.ok && board.value.sessions).toEqual([])

    const pushed: AppSettings[] = []
    const off = core.on('settingsChanged', (settings) => pushed.push(settings))
    const saved = await core.request('saveSettings', { display: { theme: 'light' } })
    off()
    // Typed: the answer is the contract's AppSettings, no cast.
    expect(saved.ok && saved.value.display.theme).toBe('light')
    expect(pushed.map((s) => s.display.theme)).toEqual(['light'])

    const audit = await core.request('listAudit', {})
    expect(audit.ok && audit.value.map((e) => [e.actor, e.action])).toEqual([[userInfo().username, 'saveSettings']])
  })

  it('refuses what the contract refuses, naming the field and the problem apart', async () => {
    const refused = await core!.request('addUser', { name: 'val/admin', role: 'viewer' })
    expect(refused).toEqual({
      ok: false,
      error: {
        code: 'invalid-arguments',
        message: 'addUser: name: letters, digits, spaces and . _ @ - only',
        issue: { field: 'name', problem: 'letters, digits, spaces and . _ @ - only' }
      }
    })
  })
})
