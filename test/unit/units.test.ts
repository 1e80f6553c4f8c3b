// Units the API leaves unstated, detected from a real cache file: each says where it came from.
// The reliability scale is each connection's own (connectionScales), the viewer units the cache's.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { EventSessionRecord, ViewerRecord } from '../../src/main/core/api/schemas'
import { openDatabase, type Db } from '../../src/main/core/store/db'
import { storeSessionList } from '../../src/main/core/store/sessions'
import { updateConnection, upsertConnection } from '../../src/main/core/store/connections'
import { connectionScales } from '../../src/main/core/store/reliability-scales'
import { resolveUnits } from '../../src/main/core/store/units'
import { storeViewerList } from '../../src/main/core/store/viewers'
import { ConnectionInputSchema } from '../../src/shared/connections'
import { DEFAULT_DISPLAY } from '../../src/shared/settings'

const T0 = Date.parse('2026-02-01T10:00:00Z')
let dir: string
let db: Db

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'eventwatch-units-'))
  db = openDatabase(join(dir, 'cache.db'))
  upsertConnection(db, { id: 'A', name: 'A', baseUrl: 'https://a', authUrl: 'https://a', platformId: 'p', tenantId: 't', clientId: 'c', isDemo: false })
})
afterEach(() => {
  db.close()
  rmSync(dir, { recursive: true, force: true })
})

/** Connection A's reliability scale as the core decides it. */
const scaleOfA = () => connectionScales(db).get('A')

const session = (reliabilityScore: number): EventSessionRecord => ({
  eventSessionId: 's', platformId: 'p', tenantId: 't', contentId: 'c', eventName: 'e', startedAt: new Date(T0).toISOString(),
  updatedAt: new Date(T0).toISOString(), hasEnded: false, viewersCount: 3, reliabilityScore, cdnTraffic: 0, ecdnTraffic: 0
})

/** Viewers connected for 600 s each, watching 590 s of it at 250 kB/s, in the given units. */
function viewers(timeScale: number, trafficScale: number): ViewerRecord[] {
  return [1, 2, 3].map((i) => ({
    viewerId: `v${i}`,
    startedAt: new Date(T0).toISOString(),
    endedAt: new Date(T0 + 600_000).toISOString(),
    viewingTime: 590 * timeScale,
    cdnTraffic: 590 * 250_000 * trafficScale
  }))
}

describe('resolveUnits', () => {
  it('says it assumed the defaults when the cache is empty', () => {
    const units = resolveUnits(db, DEFAULT_DISPLAY)
    expect(scaleOfA()).toMatchObject({ setting: 'auto', value: '0-100', source: 'default' })
    expect(units.viewerTimeUnit).toMatchObject({ value: 'seconds', source: 'default' })
    expect(units.trafficUnit).toMatchObject({ value: 'bytes', source: 'default' })
  })

  it('detects 0–100, seconds and bytes', () => {
    storeSessionList(db, 'A', [session(97.5)], T0)
    storeViewerList(db, 'A', 's', viewers(1, 1), T0, 1)
    const units = resolveUnits(db, DEFAULT_DISPLAY)
    expect(scaleOfA()).toMatchObject({ setting: 'auto', value: '0-100', source: 'detected' })
    expect(units.viewerTimeUnit).toMatchObject({ value: 'seconds', source: 'detected' })
    expect(units.trafficUnit).toMatchObject({ value: 'bytes', source: 'detected' })
  })

  it('detects 0–1, milliseconds and kilobytes', () => {
    storeSessionList(db, 'A', [session(0.975)], T0)
    storeViewerList(db, 'A', 's', viewers(1000, 1 / 1000), T0, 1)
    const units = resolveUnits(db, DEFAULT_DISPLAY)
    expect(scaleOfA()).toMatchObject({ setting: 'auto', value: '0-1', source: 'detected' })
    expect(units.viewerTimeUnit).toMatchObject({ value: 'milliseconds', source: 'detected' })
    expect(units.trafficUnit).toMatchObject({ value: 'kilobytes', source: 'detected' })
  })

  it('lets a setting win over the data', () => {
    storeSessionList(db, 'A', [session(0.975)], T0)
    const settings = ConnectionInputSchema.parse({
      name: 'A', baseUrl: 'https://a.example', authUrl: 'https://a.example', platformId: 'p', tenantId: 't', clientId: 'c',
      reliabilityScale: '0-100'
    })
    updateConnection(db, 'A', settings)
    expect(scaleOfA()).toEqual({
      connectionId: 'A', connectionName: 'A', setting: '0-100', value: '0-100', source: 'setting', reason: 'set for this connection'
    })
    const units = resolveUnits(db, { ...DEFAULT_DISPLAY, trafficUnit: 'megabytes', viewerTimeUnit: 'milliseconds' })
    expect(units).toEqual({
      trafficUnit: { value: 'megabytes', source: 'setting', reason: 'set in Settings' },
      viewerTimeUnit: { value: 'milliseconds', source: 'setting', reason: 'set in Settings' }
    })
  })
})
