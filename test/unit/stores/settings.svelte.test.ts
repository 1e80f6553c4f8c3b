// settings.svelte.ts and display.svelte.ts: the settings read once, replaced by every
// settingsChanged push (a save in any window), and a save's refusal kept in the core's words;
// the display store formats traffic and viewer times in the units the core resolved.
import { describe, expect, it } from 'vitest'
import { DisplayStore, display } from '../../../src/renderer/src/lib/stores/display.svelte'
import { SettingsStore } from '../../../src/renderer/src/lib/stores/settings.svelte'
import { DEFAULT_ALERT_RULES } from '../../../src/shared/alerts'
import {
  DEFAULT_CADENCES,
  DEFAULT_DISPLAY,
  DEFAULT_RETENTION,
  DEFAULT_THRESHOLDS,
  type AppSettings,
  type ResolvedUnits
} from '../../../src/shared/settings'
import { PushingClient } from './pushing-client'

const units = (traffic: ResolvedUnits['trafficUnit']['value'], time: ResolvedUnits['viewerTimeUnit']['value']): ResolvedUnits => ({
  trafficUnit: { value: traffic, source: 'detected', reason: 'from the data' },
  viewerTimeUnit: { value: time, source: 'detected', reason: 'from the data' }
})

const appSettings = (change: Partial<AppSettings> = {}): AppSettings => ({
  retention: { ...DEFAULT_RETENTION },
  cadences: { ...DEFAULT_CADENCES },
  thresholds: { ...DEFAULT_THRESHOLDS },
  display: { ...DEFAULT_DISPLAY },
  alertRules: DEFAULT_ALERT_RULES,
  desktop: { startAtLogin: false },
  units: units('bytes', 'seconds'),
  ...change
})

describe('SettingsStore', () => {
  it('loads the settings and hands the display its part', async () => {
    const loaded = appSettings({ display: { ...DEFAULT_DISPLAY, timeZone: 'utc' }, units: units('kilobytes', 'milliseconds') })
    const client = new PushingClient().succeed('getSettings', loaded)
    const store = new SettingsStore()
    await store.load(client)
    expect(store.current).toEqual(loaded)
    expect(store.loadError).toBeNull()
    expect(display.timeZone).toBe('UTC')
    expect(display.units.trafficUnit.value).toBe('kilobytes')
  })

  it('keeps why the settings could not be read', async () => {
    const store = new SettingsStore()
    await store.load(new PushingClient().refuse('getSettings', 'the cache cannot be read'))
    expect(store.loadError).toBe('the cache cannot be read')
    expect(store.current).toBeNull()
  })

  it('follows a save made in another window (settingsChanged) until disconnected', async () => {
    const client = new PushingClient().succeed('getSettings', appSettings())
    const store = new SettingsStore()
    await store.load(client)
    const off = store.connect(client)
    client.push('settingsChanged', appSettings({ thresholds: { warning: 97, critical: 93 } }))
    expect(store.current?.thresholds).toEqual({ warning: 97, critical: 93 })
    off()
    client.push('settingsChanged', appSettings({ thresholds: { warning: 80, critical: 70 } }))
    expect(store.current?.thresholds).toEqual({ warning: 97, critical: 93 })
  })

  it("shows a refused save in the core's words and keeps the settings it had", async () => {
    const client = new PushingClient().succeed('getSettings', appSettings()).refuse('saveSettings', 'saveSettings: critical: the critical level must be below the warning level')
    const store = new SettingsStore()
    await store.load(client)
    expect(await store.save(client, 'thresholds', { warning: 90, critical: 95 })).toBe(false)
    expect(store.outcomes.thresholds).toEqual({ ok: false, message: 'Not saved: saveSettings: critical: the critical level must be below the warning level' })
    expect(store.current?.thresholds).toEqual(DEFAULT_THRESHOLDS)
    expect(store.saving).toBeNull()
  })

  it('applies an accepted save at once, says so, and forgets the outcome when asked', async () => {
    const saved = appSettings({ cadences: { ...DEFAULT_CADENCES, detailSeconds: 20 } })
    const client = new PushingClient().succeed('getSettings', appSettings()).succeed('saveSettings', saved)
    const store = new SettingsStore()
    await store.load(client)
    expect(await store.save(client, 'cadences', { detailSeconds: 20 })).toBe(true)
    expect(client.argsOf('saveSettings')).toEqual([{ cadences: { detailSeconds: 20 } }])
    expect(store.current?.cadences.detailSeconds).toBe(20)
    expect(store.outcomes.cadences).toEqual({ ok: true, message: 'Saved.' })
    store.clearOutcome('cadences')
    expect(store.outcomes.cadences).toBeUndefined()
  })
})

describe('DisplayStore', () => {
  it('shows traffic in decimal bytes whatever unit the service reports', () => {
    const store = new DisplayStore()
    store.apply(appSettings({ units: units('kilobytes', 'seconds') }))
    expect(store.formatTraffic(1500)).toBe('1.5 MB')
    store.apply(appSettings({ units: units('megabytes', 'seconds') }))
    expect(store.formatTraffic(2)).toBe('2.0 MB')
    expect(store.formatTraffic(null)).toBe('—')
  })

  it('shows viewer times in seconds whatever unit the service reports', () => {
    const store = new DisplayStore()
    store.apply(appSettings({ units: units('bytes', 'milliseconds') }))
    expect(store.formatViewerTime(125_000)).toBe('2 min 5 s')
    store.apply(appSettings({ units: units('bytes', 'seconds') }))
    expect(store.formatViewerTime(3_725)).toBe('1 h 2 min')
    expect(store.formatViewerTime(Number.NaN)).toBe('—')
  })

  it('formats times in the chosen zone and says which', () => {
    const store = new DisplayStore()
    store.apply(appSettings({ display: { ...DEFAULT_DISPLAY, timeZone: 'utc' } }))
    expect(store.timeZoneLabel).toBe('UTC')
    expect(store.formatTime('2026-03-01T12:34:56Z')).toBe('12:34:56')
    expect(store.formatTime('not a time')).toBe('—')
    store.apply(appSettings({ display: { ...DEFAULT_DISPLAY, timeZone: 'local' } }))
    expect(store.timeZone).toBeUndefined()
    expect(store.timeZoneLabel).toBe('local time')
  })
})
