// The screens' requests through the app API, against the demo simulator and a real SQLite file:
// each answers from the cache, validates its arguments, and an export in chunks adds up.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAppCore } from '../../src/main/core/app/start'
import type { AppCore } from '../../src/main/core/app/types'
import type { LiveBoard, LiveSession } from '../../src/shared/domain'
import type { BreakdownRow, ChartSeries, ExportChunk, LiveTrends, PastSessionsPage, ViewerDetail, ViewerPage } from '../../src/shared/screens'
import type { SessionStory } from '../../src/shared/session-story'
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
  core = await startAppCore({ db: join(dir, 'cache.db'), demoSeed: 7 })
  // The first pass fills the cache: sessions, snapshots, viewer lists.
  for (let i = 0; i < 200; i++) {
    const { sessions } = await value<LiveBoard>('listLiveSessions', {})
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
    // Each row judged by the core: the demo reports on 0–100, so the score stands as it is.
    for (const r of page.rows) {
      expect(r.reliability).toBe(r.reliabilityScore)
      const expected = r.reliability === null ? 'unknown' : r.reliability < 90 ? 'critical' : r.reliability < 95 ? 'warning' : 'good'
      expect(r.health).toBe(expected)
    }
    const os = page.rows[0]!.os!
    const filtered = await value<ViewerPage>('viewerPage', { ...keyOf(live), sort: 'viewerId', filter: { os }, limit: 1000 })
    expect(filtered.total).toBeGreaterThan(0)
    expect(filtered.rows.every((r) => r.os === os)).toBe(true)

    const detail = await value<NonNullable<ViewerDetail>>('viewerDetail', { ...keyOf(live), viewerId: page.rows[0]!.viewerId })
    expect(detail.viewer).toMatchObject({ viewerId: page.rows[0]!.viewerId, reliabilityScore: page.rows[0]!.reliabilityScore })
    expect(detail).toMatchObject({ reliability: page.rows[0]!.reliability, health: page.rows[0]!.health })
    expect(Array.isArray(detail.viewer.networkConnections)).toBe(true)
    expect(await value('viewerDetail', { ...keyOf(live), viewerId: 'no-such-viewer' })).toBeNull()
  })

  it('breaks viewers down by each dimension, the groups adding up to the list', async () => {
    const { total } = await value<ViewerPage>('viewerPage', { ...keyOf(live), sort: 'viewerId', limit: 0 })
    for (const dimension of ['site', 'deviceType', 'os', 'app', 'connectionType']) {
      const rows = await value<BreakdownRow[]>('breakdown', { ...keyOf(live), dimension })
      expect(rows.reduce((n, r) => n + r.viewers, 0), dimension).toBe(total)
      for (const r of rows) {
        if (r.avgReliability === null) expect(r.health).toBe('unknown')
        else {
          expect(r.avgReliability).toBeGreaterThan(1) // on 0–100, not the service's 0–1
          expect(r.avgReliability).toBeLessThanOrEqual(100)
          expect(['good', 'warning', 'critical']).toContain(r.health)
        }
      }
    }
  })

  it('charts the session’s snapshots within the points asked for', async () => {
    const chart = await value<ChartSeries>('sessionChart', { ...keyOf(live), maxPoints: 50 })
    expect(chart.total).toBeGreaterThan(0)
    expect(chart.points.length).toBeGreaterThan(0)
    expect(chart.points.length).toBeLessThanOrEqual(50)
    for (const p of chart.points) {
      expect(p.reliability).toBeGreaterThan(1)
      expect(p.minReliability).toBeLessThanOrEqual(p.reliability)
    }
    const none = await value<ChartSeries>('sessionChart', { ...keyOf(live), from: new Date(Date.now() + 3_600_000).toISOString() })
    expect(none.points).toEqual([])
  })

  it('tells a session’s story from its viewer list: everyone counted, the peak within the audience, scores judged', async () => {
    const { total } = await value<ViewerPage>('viewerPage', { ...keyOf(live), sort: 'viewerId', limit: 0 })
    const story = await value<NonNullable<SessionStory>>('sessionStory', { ...keyOf(live), maxPoints: 50 })
    expect(story.viewers).toBe(total)
    expect(story.points).toHaveLength(50)
    expect(story.peak!.viewers).toBeGreaterThan(0)
    expect(story.peak!.viewers).toBeLessThanOrEqual(story.timedViewers)
    expect(Math.max(...story.points.map((p) => p.peak))).toBe(story.peak!.viewers)
    // Joins add up to the viewers counted; those who never left are still watching at the end.
    expect(story.points.reduce((n, p) => n + p.joins, 0)).toBe(story.timedViewers)
    expect(story.points.at(-1)!.watching).toBe(story.stillWatching)
    for (const p of story.points) {
      if (p.reliability === null) expect(p.health).toBe('unknown')
      else expect(p.reliability).toBeLessThanOrEqual(100)
    }
    expect(await value('sessionStory', { connectionId: live.connectionId, eventSessionId: 'no-such-session' })).toBeNull()
  })

  it('shows a name given to a site beside its code in the viewer rows and the site breakdown, and forgets it on request', async () => {
    const sites = await value<BreakdownRow[]>('breakdown', { ...keyOf(live), dimension: 'site' })
    const code = Number(sites.find((r) => r.key !== null)!.key)
    expect(await value('setSiteName', { code, name: '  London <HQ>  ' })).toEqual([{ code, name: 'London <HQ>' }])
    const named = await value<BreakdownRow[]>('breakdown', { ...keyOf(live), dimension: 'site' })
    expect(named.find((r) => r.key === String(code))!.name).toBe('London <HQ>')
    expect(named.filter((r) => r.key !== String(code)).every((r) => r.name === null)).toBe(true)
    const rows = (await value<ViewerPage>('viewerPage', { ...keyOf(live), sort: 'viewerId', filter: { siteCode: code }, limit: 5 })).rows
    expect(rows.length).toBeGreaterThan(0)
    expect(rows.every((r) => r.siteName === 'London <HQ>')).toBe(true)
    // Refused as the contract says: a name of two lines, an empty one.
    expect((await core.dispatch('setSiteName', { code, name: 'a\nb' })).ok).toBe(false)
    expect((await core.dispatch('setSiteName', { code, name: '   ' })).ok).toBe(false)
    expect(await value('setSiteName', { code, name: null })).toEqual([])
    expect(await value('listSiteNames', {})).toEqual([])
  })

  it('gives the trends of several live sessions in one request, each as its own chart would', async () => {
    const { sessions } = await value<LiveBoard>('listLiveSessions', {})
    const keys = sessions.slice(0, 3).map(keyOf)
    const unknown = { connectionId: 'demo', eventSessionId: 'no-such' }
    const from = new Date(Date.now() - 3_600_000).toISOString()
    const charts = () => Promise.all(keys.map((key) => value<ChartSeries>('sessionChart', { ...key, from, maxPoints: 30 })))
    // A poll may land between the requests: the trends match the charts before or after them.
    const before = await charts()
    const { trends } = await value<LiveTrends>('liveTrends', { sessions: [...keys, unknown], from, maxPoints: 30 })
    const after = await charts()
    expect(trends.map(keyOf)).toEqual([...keys, unknown])
    expect(trends.at(-1)?.points).toEqual([])
    keys.forEach((_, i) => {
      expect(trends[i]?.points.length).toBeGreaterThan(0)
      expect([before[i]?.points, after[i]?.points]).toContainEqual(trends[i]?.points)
    })
  })

  it('lists sessions from the cache, searching names and content ids, and says as of when', async () => {
    const all = await value<PastSessionsPage>('pastSessions', { sort: 'started', includeLive: true, limit: 1000 })
    expect(all.total).toBeGreaterThan(1)
    expect(Date.parse(all.cachedAsOf ?? '')).not.toBeNaN()
    const byContent = await value<PastSessionsPage>('pastSessions', { sort: 'name', includeLive: true, search: live.contentId })
    expect(byContent.rows.map((r) => r.eventSessionId)).toContain(live.eventSessionId)
    // Judged as Live judges them, and watched: the demo is the connection polled.
    const row = byContent.rows.find((r) => r.eventSessionId === live.eventSessionId)
    expect(row).toMatchObject({ watched: true, reliability: row?.reliabilityScore, levels: { source: 'settings' } })
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
    // The reliability scale is each connection's now, not a unit of the whole cache.
    expect(units).not.toHaveProperty('reliabilityScale')
    expect(units.trafficUnit.value).toBe('bytes')
    expect(units.viewerTimeUnit.value).toBe('seconds')
  })
})
