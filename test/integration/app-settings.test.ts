// Settings through the app API: defaults, saving, the running pollers taking the new cadence,
// and everything still there after a restart. A real SQLite file and the demo simulator.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import type { Status } from '../../src/shared/domain'
import type { AppSettings } from '../../src/shared/settings'

const dir = mkdtempSync(join(tmpdir(), 'eventwatch-settings-'))
const dbFile = join(dir, 'cache.db')
const cores: AppCore[] = []

afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
})

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

async function start(): Promise<AppCore> {
  const core = await startAppCore({ dbFile })
  cores.push(core)
  return core
}

async function value<T>(core: AppCore, name: string, args: unknown): Promise<T> {
  const result = await core.dispatch(name, args)
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
  return result.value as T
}

describe('settings through the app API', () => {
  it('starts from the defaults, saves changes, applies new cadences and keeps them across a restart', async () => {
    const core = await start()
    expect(await value<AppSettings>(core, 'getSettings', {})).toEqual({
      cadences: { discoverySeconds: 30, detailSeconds: 15, viewersSeconds: 60 },
      retention: { snapshotsDays: 90, viewerListsDays: 90, sessionsDays: null }
    })
    expect((await value<Status>(core, 'getStatus', {})).pollIntervalSeconds).toBe(15)

    const saved = await value<AppSettings>(core, 'saveSettings', {
      cadences: { detailSeconds: 20 },
      retention: { snapshotsDays: 30 }
    })
    expect(saved.cadences).toEqual({ discoverySeconds: 30, detailSeconds: 20, viewersSeconds: 60 })
    expect(saved.retention.snapshotsDays).toBe(30)
    // The running pollers were restarted on the new cadence.
    expect((await value<Status>(core, 'getStatus', {})).pollIntervalSeconds).toBe(20)

    const refused = await core.dispatch('saveSettings', { cadences: { detailSeconds: 2 } })
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
    await core.close()

    const again = await start()
    expect(await value<AppSettings>(again, 'getSettings', {})).toEqual(saved)
    expect((await value<Status>(again, 'getStatus', {})).pollIntervalSeconds).toBe(20)
  }, 30_000)

  it('lets cadences given for the run win over the stored ones', async () => {
    const core = await startAppCore({ dbFile, cadences: { discoveryMs: 5000, detailMs: 5000, viewersMs: 5000 } })
    cores.push(core)
    expect((await value<Status>(core, 'getStatus', {})).pollIntervalSeconds).toBe(5)
  })
})
