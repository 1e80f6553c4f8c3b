// The levels a session's scores are judged by, resolved in one place: its own override, else the
// settings' (health/health.ts decides which). The alert rules, the live rows' health and the
// webhook bodies all read them here, so an override changes them alike. A book reads the
// settings once and each connection's overrides once, lazily: a page of rows costs a few queries.
// A book built from what was read through the Store beforehand (app/verdicts.ts) reads nothing.
import type { EffectiveLevels } from '../../../shared/reliability'
import type { ReliabilityThresholds } from '../../../shared/settings'
import { effectiveLevels } from '../health/health'
import { storedOverrides, type StoredOverride } from './alert-overrides'
import type { Db } from './db'
import type { AlertReads } from './interface/alerts'
import type { SettingsReads } from './interface/settings'
import { getThresholds } from './settings'

/** A session without an override: not muted, judged by the settings' levels. */
export const NO_OVERRIDE: StoredOverride = { muted: false, thresholds: null }

/** The connection's overrides by session id: what the book (and the Store's alerts.overrides) reads. */
export function connectionOverrides(db: Db, connectionId: string): Map<string, StoredOverride> {
  return storedOverrides(db, connectionId)
}

/** What a book answers from when it was read beforehand. */
export interface ReadLevels {
  /** The settings' levels. */
  thresholds: ReliabilityThresholds
  /** The sessions' overrides, by connection id then session id: of every connection read. */
  overrides: ReadonlyMap<string, ReadonlyMap<string, StoredOverride>>
  /** Whether every connection's were read (one not among them has none: it was removed). */
  everyConnection: boolean
}

export class LevelBook {
  private settings: ReliabilityThresholds | undefined
  private readonly overridesBy = new Map<string, ReadonlyMap<string, StoredOverride>>()
  private readonly db: Db | undefined
  private readonly read: ReadLevels | undefined

  /** On the cache (read lazily), or on what was read beforehand. */
  constructor(from: Db | ReadLevels) {
    if ('everyConnection' in from) {
      this.read = from
      this.settings = from.thresholds
      for (const [connectionId, overrides] of from.overrides) this.overridesBy.set(connectionId, overrides)
    } else {
      this.db = from
    }
  }

  /** The session's override (muted, its own levels); none for a connection's own alert (null). */
  override(connectionId: string, eventSessionId: string | null): StoredOverride {
    if (eventSessionId === null) return NO_OVERRIDE
    let overrides = this.overridesBy.get(connectionId)
    if (!overrides) {
      overrides = this.overridesOf(connectionId)
      this.overridesBy.set(connectionId, overrides)
    }
    return overrides.get(eventSessionId) ?? NO_OVERRIDE
  }

  /** The levels that apply to the session: its own, else the settings'. */
  levels(connectionId: string, eventSessionId: string | null): EffectiveLevels {
    this.settings ??= getThresholds(this.db!)
    return effectiveLevels(this.override(connectionId, eventSessionId).thresholds, this.settings)
  }

  private overridesOf(connectionId: string): ReadonlyMap<string, StoredOverride> {
    if (this.db) return connectionOverrides(this.db, connectionId)
    // Read beforehand: a connection not read is a removed one, or a question nobody prepared for.
    if (this.read?.everyConnection) return new Map()
    const read = [...(this.read?.overrides.keys() ?? [])].join(', ') || 'none'
    throw new Error(`levels asked of connection ${connectionId}, but only the overrides of ${read} were read`)
  }
}

/** What the levels are read from through the Store: its reads, or a unit's own. */
export interface LevelReads {
  alerts: Pick<AlertReads, 'overrides'>
  settings: SettingsReads
}

/** The session's override, read through the Store. */
export async function overrideThrough(read: LevelReads, connectionId: string, eventSessionId: string | null): Promise<StoredOverride> {
  if (eventSessionId === null) return NO_OVERRIDE
  return (await read.alerts.overrides(connectionId)).get(eventSessionId) ?? NO_OVERRIDE
}

/** The levels that apply to the session, as LevelBook.levels decides them, read through the Store. */
export async function levelsThrough(read: LevelReads, connectionId: string, eventSessionId: string | null): Promise<EffectiveLevels> {
  const override = await overrideThrough(read, connectionId, eventSessionId)
  return effectiveLevels(override.thresholds, await read.settings.get('thresholds'))
}
