// App-wide settings in the `settings` table, one JSON value per key, each read and written
// through a zod schema: a hand-edited or older value never reaches the app unchecked.
import { z } from 'zod'
import type { Db } from './db'
import { statement } from './statements'

/** Days to keep something, or null for "forever". */
const days = z.number().int().min(1).max(36_500).nullable()

export const RetentionSettingsSchema = z.object({
  snapshotsDays: days,
  viewerListsDays: days,
  sessionsDays: days
})
export type RetentionSettings = z.infer<typeof RetentionSettingsSchema>

export const DEFAULT_RETENTION: RetentionSettings = Object.freeze({
  snapshotsDays: 90,
  viewerListsDays: 90,
  sessionsDays: null
})

const RETENTION_KEY = 'retention'

function readJson(db: Db, key: string): unknown {
  const row = statement(db, 'SELECT value_json FROM settings WHERE key = ?').get(key) as { value_json: string } | undefined
  if (!row) return undefined
  try {
    return JSON.parse(row.value_json) as unknown
  } catch {
    return undefined
  }
}

function writeJson(db: Db, key: string, value: unknown): void {
  statement(
    db,
    'INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json'
  ).run(key, JSON.stringify(value))
}

/** The stored retention settings; a missing or invalid field falls back to its default. */
export function getRetentionSettings(db: Db): RetentionSettings {
  const stored = readJson(db, RETENTION_KEY)
  const object = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {}
  const field = (name: keyof RetentionSettings): number | null => {
    const parsed = days.safeParse(object[name])
    return parsed.success ? parsed.data : DEFAULT_RETENTION[name]
  }
  return { snapshotsDays: field('snapshotsDays'), viewerListsDays: field('viewerListsDays'), sessionsDays: field('sessionsDays') }
}

/** Changes some retention settings; throws a ZodError (nothing written) for an invalid value. */
export function setRetentionSettings(db: Db, change: Partial<RetentionSettings>): RetentionSettings {
  const next = RetentionSettingsSchema.parse({ ...getRetentionSettings(db), ...change })
  writeJson(db, RETENTION_KEY, next)
  return next
}
