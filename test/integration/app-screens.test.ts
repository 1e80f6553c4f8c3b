// The screens' requests through the app API, against the demo simulator and a real SQLite file:
// each answers from the cache, validates its arguments, and an export in chunks adds up.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import type { LiveSession } from '../../src/shared/domain'
import type { BreakdownRow, ChartSeries, ExportChunk, PastSessionsPage, ViewerPage } from '../../src/shared/screens'
import type { AppSettings } from '../../src/shared/settings'

const dir = mkdtempSync(join(tmpdir(), 'eventwatch-screens-'))
let core: AppCore
let live: LiveSession

async function value<T>(name: string, args: unknown): Promise<T> {
  const result = await core.dispatch(name, args)
  if (!result.ok) throw new Error(`${name}: ${result.error.message}`)
  return result.value as T
}

beforeAll(async () => {
  core = await startAppCore({ dbFile: join(dir, 'cache.db'), demoSeed: 7 })
  // The first pass fills the cache: sessions, snapshots, viewer lists.
  for (let i = 0; i < 200; i++) {
    const sessions = await value<LiveSession[]>('listLiveSessions', {})
    const withViewers = sessions.length > 0 ? await value<ViewerPage>('viewerPage', { ...keyOf(sessions[0]!), sort: 'viewerId', limit: 1 }) : null
    if (withViewers && withViewers.total > 0) {
      live = sessions[0]!
      return
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('the demo never filled the cache')
}, 30_000)

afterAll(async () => {
  await core.close()
  rmSync(dir, { recursive: true, force: true })
})

const keyOf = (s: { connectionId: string; eventSessionId: string }) => ({ connectionId: s.connectionId, eventSessionId: s.eventSessionId })

describe('the screens through the app API', () => {
  it('pages a session’s viewers, sorted and filtered, and gives one viewer whole', async () => {
    const page = await value<ViewerPage>('viewerPage', { ...keyOf(live), sort: 'reliabilityScore', limit: 20 })
    expect(page.rows).toHaveLength(20)
    const scores = page.rows.map((r) => r.reliabilityScore ?? Infinity)
    expect(scores).toEqual([...scores].sort((a, b) => a - b))
    const os = page.rows[0]!.os!
    const filtered = await value<ViewerPage>('viewerPage', { ...keyOf(live), sort: 'viewerId', filter: { os }, limit: 1000 })
    expect(filtered.total).toBeGreaterThan(0)
    expect(filtered.rows.every((r) => r.os === os)).toBe(true)

    const detail = await value<Record<string, unknown>>('viewerDetail', { ...keyOf(live), viewerId: page.rows[0]!.viewerId })
    expect(detail).toMatchObject({ viewerId: page.rows[0]!.viewerId, reliabilityScore: page.rows[0]!.reliabilityScore })
    expect(Array.isArray(detail.networkConnections)).toBe(true)
    expect(await value('viewerDetail', { ...keyOf(live), viewerId: 'no-such-viewer' })).toBeNull()
  })

  it('breaks viewers down by each dimension, the groups adding up to the list', async () => {
    const { total } = await value<ViewerPage>('viewerPage', { ...keyOf(live), sort: 'viewerId', limit: 0 })
    for (const dimension of ['site', 'deviceType', 'os', 'app', 'connectionType']) {
      const rows = await value<BreakdownRow[]>('breakdown', { ...keyOf(live), dimension })
      expect(rows.reduce((n, r) => n + r.viewers, 0), dimension).toBe(total)
    }
  })

  it('charts the session’s snapshots within the points asked for', async () => {
    const chart = await value<ChartSeries>('sessionChart', { ...keyOf(live), maxPoints: 50 })
    expect(chart.total).toBeGreaterThan(0)
    expect(chart.points.length).toBeGreaterThan(0)
    expect(chart.points.length).toBeLessThanOrEqual(50)
    const none = await value<ChartSeries>('sessionChart', { ...keyOf(live), from: new Date(Date.now() + 3_600_000).toISOString() })
    expect(none.points).toEqual([])
  })

  it('lists sessions from the cache, searching names and content ids, and says as of when', async () => {
    const all = await value<PastSessionsPage>('pastSessions', { sort: 'started', includeLive: true, limit: 1000 })
    expect(all.total).toBeGreaterThan(1)
    expect(Date.parse(all.cachedAsOf ?? '')).not.toBeNaN()
    const byContent = await value<PastSessionsPage>('pastSessions', { sort: 'name', includeLive: true, search: live.contentId })
    expect(byContent.rows.map((r) => r.eventSessionId)).toContain(live.eventSessionId)
    const ended = await value<PastSessionsPage>('pastSessions', { sort: 'started', descending: true })
    expect(ended.rows.every((r) => r.hasEnded)).toBe(true)
  })

  it('exports viewers in chunks that add up to the whole list, and the session and its snapshots', async () => {
    const first = await value<ExportChunk>('exportChunk', { ...keyOf(live), kind: 'viewers', offset: 0, limit: 7 })
    const ids = first.records.map((r) => r.viewerId)
    for (let offset = 7; offset < first.total; offset += 7) {
      const chunk = await value<ExportChunk>('exportChunk', { ...keyOf(live), kind: 'viewers', offset, limit: 7 })
      ids.push(...chunk.records.map((r) => r.viewerId))
    }
    expect(ids).toHaveLength(first.total)
    expect(new Set(ids).size).toBe(first.total)
    const session = await value<ExportChunk>('exportChunk', { ...keyOf(live), kind: 'session', offset: 0, limit: 10 })
    expect(session).toMatchObject({ total: 1, records: [{ eventSessionId: live.eventSessionId }] })
    const snapshots = await value<ExportChunk>('exportChunk', { ...keyOf(live), kind: 'snapshots', offset: 0, limit: 5000 })
    expect(snapshots.total).toBeGreaterThan(0)
    expect(snapshots.records[0]).toHaveProperty('viewersCount')
  })

  it('refuses malformed arguments with a clear message, touching nothing', async () => {
    expect(await core.dispatch('viewerPage', { ...keyOf(live), sort: 'password' })).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
    expect(await core.dispatch('viewerPage', { ...keyOf(live), sort: 'os', limit: 1_000_000 })).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
    expect(await core.dispatch('exportChunk', { ...keyOf(live), kind: 'everything', offset: 0, limit: 1 })).toMatchObject({ ok: false })
    expect(await core.dispatch('pastSessions', { sort: 'started', from: 'yesterday' })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/from/) } })
  })

  it('detects the units of the demo data and says so', async () => {
    const { units } = await value<AppSettings>('getSettings', {})
    expect(units.reliabilityScale).toMatchObject({ value: '0-100', source: 'detected' })
    expect(units.trafficUnit.value).toBe('bytes')
    expect(units.viewerTimeUnit.value).toBe('seconds')
  })
})
