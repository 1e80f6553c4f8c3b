// What the core decides of every session, viewer, breakdown row and chart point it hands out, and
// of every score the alert rules judge: the score on 0–100 (by its connection's own scale) and its
// health under the levels that apply (the session's override, else the settings). One instance per
// answer or evaluation: `loadVerdicts` reads the scales, levels and overrides through the Store
// first (a few reads, not one per row), then every verdict is answered synchronously.
import type { ChartPoint } from '../../../shared/chart-point'
import type { Session } from '../../../shared/domain'
import type { EffectiveLevels, Health, ReliabilityScale } from '../../../shared/reliability'
import { healthOf } from '../health/health'
import { toHundred } from '../health/scale'
import type { StoredOverride } from '../store/alert-overrides'
import type { AlertReads } from '../store/interface/alerts'
import type { ConnectionReads } from '../store/interface/connections'
import type { SettingsReads } from '../store/interface/settings'
import { scaleBookOf, scaleOf, type ScaleBook } from '../store/reliability-scales'
import type { SnapshotPoint } from '../store/queries/snapshots-chart'
import { LevelBook, type ReadLevels } from '../store/session-levels'
import type { SessionRow, SnapshotRow } from '../store/sessions'

/** A stored snapshot, or a bucket of them, with the service's own reliabilityScore. */
export type RawPoint = SnapshotRow & Partial<Pick<SnapshotPoint, 'minReliabilityScore' | 'maxViewersCount' | 'samples'>>

/** What verdicts are decided from, read before any is asked for. */
export interface VerdictFacts extends ReadLevels {
  scales: ScaleBook
}

/** What `loadVerdicts` reads: `store.read`, or a unit's `tx`. */
export interface VerdictReads {
  connections: Pick<ConnectionReads, 'scaleFacts'>
  alerts: Pick<AlertReads, 'overrides'>
  settings: SettingsReads
}

/** Each connection's reliability scale, decided from what the Store holds of it. */
export const readScales = async (read: Pick<VerdictReads, 'connections'>): Promise<ScaleBook> => scaleBookOf(await read.connections.scaleFacts())

/**
 * The verdicts of one answer or evaluation: reads the scales, the settings' levels and the
 * overrides of `connectionIds` (every connection's when none are named), then answers at once.
 * `scales`: when the caller has read them already. Asked about a connection whose overrides it did
 * not read, it throws rather than judge by the wrong levels.
 */
export async function loadVerdicts(read: VerdictReads, connectionIds?: Iterable<string>, scales?: ScaleBook): Promise<Verdicts> {
  const [book, thresholds] = await Promise.all([scales ?? readScales(read), read.settings.get('thresholds')])
  const ids = connectionIds === undefined ? [...book.keys()] : [...new Set(connectionIds)]
  const overrides = new Map(await Promise.all(ids.map(async (id) => [id, await read.alerts.overrides(id)] as const)))
  return new Verdicts({ scales: book, thresholds, overrides, everyConnection: connectionIds === undefined })
}

const iso = (ms: number): string => new Date(ms).toISOString()

export class Verdicts {
  private readonly book: ScaleBook
  private readonly levelBook: LevelBook

  /** From what loadVerdicts read. */
  constructor(from: VerdictFacts) {
    this.book = from.scales
    this.levelBook = new LevelBook(from)
  }

  scale(connectionId: string): ReliabilityScale {
    return scaleOf(this.book, connectionId)
  }

  /** A reliabilityScore as the service reported it, on 0–100. */
  score(connectionId: string, raw: number | null | undefined): number | null {
    return toHundred(raw, this.scale(connectionId))
  }

  /** The levels its scores are judged by: its own, else the settings' (store/session-levels.ts). */
  levels(connectionId: string, eventSessionId: string): EffectiveLevels {
    return this.levelBook.levels(connectionId, eventSessionId)
  }

  /** Its override: muted, its own levels. */
  override(connectionId: string, eventSessionId: string): StoredOverride {
    return this.levelBook.override(connectionId, eventSessionId)
  }

  /** A score of this session (its own, a viewer's, a group of viewers'): on 0–100, and its health. */
  judge(connectionId: string, eventSessionId: string, raw: number | null | undefined): { reliability: number | null; health: Health } {
    const reliability = this.score(connectionId, raw)
    return { reliability, health: healthOf(reliability, this.levels(connectionId, eventSessionId)) }
  }

  /** A session as stored, with the verdicts added: its score on 0–100, its levels and health. */
  of<T extends { connectionId: string; eventSessionId: string; reliabilityScore: number }>(
    s: T
  ): T & { reliability: number | null; health: Health; levels: EffectiveLevels } {
    const levels = this.levels(s.connectionId, s.eventSessionId)
    const reliability = this.score(s.connectionId, s.reliabilityScore)
    return { ...s, reliability, health: healthOf(reliability, levels), levels }
  }

  session(row: SessionRow): Session {
    return this.of({
      connectionId: row.connection_id,
      connectionName: row.connection_name,
      eventSessionId: row.event_session_id,
      eventName: row.event_name,
      contentId: row.content_id,
      startedAt: iso(row.started_at),
      updatedAt: iso(row.updated_at),
      hasEnded: row.has_ended === 1,
      viewersCount: row.viewers_count,
      reliabilityScore: row.reliability_score,
      cdnTraffic: row.cdn_traffic,
      ecdnTraffic: row.ecdn_traffic,
      lastPolledAt: row.last_polled_at === null ? null : iso(row.last_polled_at)
    })
  }

  point(connectionId: string, p: RawPoint): ChartPoint {
    const reliability = this.score(connectionId, p.reliabilityScore) ?? Number.NaN
    return {
      takenAt: p.takenAt,
      viewersCount: p.viewersCount,
      reliability,
      cdnTraffic: p.cdnTraffic,
      ecdnTraffic: p.ecdnTraffic,
      minReliability: p.minReliabilityScore === undefined ? reliability : (this.score(connectionId, p.minReliabilityScore) ?? Number.NaN),
      maxViewersCount: p.maxViewersCount ?? p.viewersCount,
      samples: p.samples ?? 1
    }
  }
}
