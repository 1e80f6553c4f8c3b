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
import { DEFAULT_ALERT_RULES, type AlertRules } from '../../src/shared/alerts'
import Database from 'better-sqlite3'
import { value } from '../support/app-core'

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
  const core = await startAppCore({ db: dbFile })
  cores.push(core)
  return core
}


describe('settings through the app API', () => {
  it('starts from the defaults, saves changes, applies new cadences and keeps them across a restart', async () => {
    const core = await start()
    expect(await value<AppSettings>(core, 'getSettings', {})).toMatchObject({
      cadences: { discoverySeconds: 30, detailSeconds: 15, viewersSeconds: 60 },
      retention: { snapshotsDays: 90, viewerListsDays: 90, sessionsDays: null },
      thresholds: { warning: 95, critical: 90 },
      display: { timeZone: 'local', theme: 'system', trafficUnit: 'auto', viewerTimeUnit: 'auto', alertSound: 'on', warningSound: 'off' }
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

  it('saves thresholds and display settings, pushing them to every window, refusing thresholds that do not fit together', async () => {
    const core = await start()
    const pushed: AppSettings[] = []
    core.onEvent((name, payload) => {
      if (name === 'settingsChanged') pushed.push(payload as AppSettings)
    })
    const saved = await value<AppSettings>(core, 'saveSettings', {
      thresholds: { warning: 85, critical: 70 },
      display: { theme: 'light', timeZone: 'utc' }
    })
    expect(saved.thresholds).toEqual({ warning: 85, critical: 70 })
    expect(saved.display).toEqual({ theme: 'light', timeZone: 'utc', trafficUnit: 'auto', viewerTimeUnit: 'auto', alertSound: 'on', warningSound: 'off' })
    expect(pushed).toEqual([saved])
    // The reliability scale is each connection's (Settings → Connections), not a display setting.
    expect(await core.dispatch('saveSettings', { display: { reliabilityScale: '0-1' } })).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' }
    })

    const inverted = await core.dispatch('saveSettings', { thresholds: { warning: 70, critical: 85 }, display: { theme: 'dark' } })
    expect(inverted).toMatchObject({ ok: false, error: { code: 'invalid-arguments', message: expect.stringMatching(/critical level must be below/) } })
    const unknownTheme = await core.dispatch('saveSettings', { display: { theme: 'neon' } })
    expect(unknownTheme).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
    // Nothing of a refused change was written, or pushed.
    expect(await value<AppSettings>(core, 'getSettings', {})).toEqual(saved)
    expect(pushed).toHaveLength(1)
  })

  it('pushes the settings when the units detected from the viewers polled firm up, and not while they hold', async () => {
    const core = await startAppCore({ db: join(dir, 'units.db'), cadences: { discoveryMs: 1000, detailMs: 1000, viewersMs: 1000 } })
    cores.push(core)
    const pushed: AppSettings[] = []
    core.onEvent((name, payload) => {
      if (name === 'settingsChanged') pushed.push(payload as AppSettings)
    })
    await expect.poll(() => pushed.at(-1)?.units.viewerTimeUnit.source, { timeout: 20_000 }).toBe('detected')
    expect(pushed.at(-1)).toEqual(await value<AppSettings>(core, 'getSettings', {}))
    // Each push says something the one before it did not.
    const units = pushed.map((p) => JSON.stringify(p.units))
    expect(units.filter((u, i) => u === units[i - 1])).toEqual([])
  }, 30_000)

  it('lets cadences given for the run win over the stored ones', async () => {
    const core = await startAppCore({ db: dbFile, cadences: { discoveryMs: 5000, detailMs: 5000, viewersMs: 5000 } })
    cores.push(core)
    expect((await value<Status>(core, 'getStatus', {})).pollIntervalSeconds).toBe(5)
  })

  it('saves the alert rules whole, refuses invalid ones, and reads a spoiled stored rule back as its default', async () => {
    const core = await start()
    expect((await value<AppSettings>(core, 'getSettings', {})).alertRules).toEqual(DEFAULT_ALERT_RULES)
    const rules: AlertRules = {
      ...DEFAULT_ALERT_RULES,
      reliabilityBelow: { ...DEFAULT_ALERT_RULES.reliabilityBelow, pendingPolls: 3, recoveryMargin: 2 },
      viewersDropping: { ...DEFAULT_ALERT_RULES.viewersDropping, enabled: false }
    }
    const saved = await value<AppSettings>(core, 'saveSettings', { alertRules: rules })
    expect(saved.alertRules).toEqual(rules)

    for (const bad of [
      { ...rules, reliabilityFalling: { ...rules.reliabilityFalling, points: 0 } },
      { ...rules, monitorBlind: { enabled: true, minutes: 0 } },
      { reliabilityBelow: rules.reliabilityBelow }
    ]) {
      expect(await core.dispatch('saveSettings', { alertRules: bad, thresholds: { warning: 60, critical: 50 } })).toMatchObject({
        ok: false,
        error: { code: 'invalid-arguments' }
      })
    }
    expect(await value<AppSettings>(core, 'getSettings', {})).toEqual(saved) // nothing of it written
    await core.close()

    // A hand-edited file: one rule spoiled, the others kept.
    const raw = new Database(dbFile)
    const stored = JSON.parse((raw.prepare("SELECT value_json FROM settings WHERE key = 'alertRules'").get() as { value_json: string }).value_json)
    stored.reliabilityFalling = { enabled: 'yes' }
    raw.prepare("UPDATE settings SET value_json = ? WHERE key = 'alertRules'").run(JSON.stringify(stored))
    raw.close()
    const again = await start()
    expect((await value<AppSettings>(again, 'getSettings', {})).alertRules).toEqual({
      ...rules,
      reliabilityFalling: DEFAULT_ALERT_RULES.reliabilityFalling
    })
  }, 30_000)
})
