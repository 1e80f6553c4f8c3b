// App-wide settings in the `settings` table, one JSON value per key, each read and written
// through a zod schema: a hand-edited or older value never reaches the app unchecked.
import type { z } from 'zod'
import { AlertRulesSchema, DEFAULT_ALERT_RULES, type AlertRules } from '../../../shared/alerts'
import {
  CadenceSettingsSchema,
  DEFAULT_CADENCES,
  DEFAULT_DISPLAY,
  DEFAULT_RETENTION,
  DEFAULT_THRESHOLDS,
  DisplaySettingsSchema,
  DesktopSettingsSchema,
  DEFAULT_DESKTOP,
  type DesktopSettings,
  ReliabilityThresholdsSchema,
  RetentionSettingsSchema,
  type CadenceSettings,
  type DisplaySettings,
  type ReliabilityThresholds,
  type RetentionSettings
} from '../../../shared/settings'
import type { Db } from './db'
import { statement } from './statements'

export { DEFAULT_RETENTION, RetentionSettingsSchema, type RetentionSettings }

function readJson(db: Db, key: string): unknown {
  const row = statement(db, 'SELECT value_json FROM settings WHERE key = ?').get(key) as { value_json: string } | undefined
  return parseStored(row?.value_json)
}

function writeJson(db: Db, key: string, value: unknown): void {
  statement(
    db,
    'INSERT INTO settings (key, value_json) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value_json = excluded.value_json'
  ).run(key, JSON.stringify(value))
}

export type ObjectSchema<T> = z.ZodObject<{ [K in keyof T]: z.ZodType<T[K]> }>

/** The valid fields of a stored value (parsed JSON, or anything a hand edit left): the others are
 *  left out, so each falls back to its default on its own. */
export function validFields<T extends object>(stored: unknown, schema: ObjectSchema<T>): Partial<T> {
  const object = typeof stored === 'object' && stored !== null ? (stored as Record<string, unknown>) : {}
  const out: Partial<T> = {}
  for (const field of Object.keys(schema.shape) as (keyof T & string)[]) {
    const parsed = (schema.shape[field] as z.ZodType<T[typeof field]>).safeParse(object[field])
    if (parsed.success) out[field] = parsed.data
  }
  return out
}

/** JSON text as stored, or undefined when a hand edit spoiled it. */
export function parseStored(json: string | undefined): unknown {
  if (json === undefined) return undefined
  try {
    return JSON.parse(json) as unknown
  } catch {
    return undefined
  }
}

/** The stored value, field by field: a missing or invalid field falls back to its default. */
function readSettings<T extends object>(db: Db, key: string, schema: ObjectSchema<T>, defaults: T): T {
  return { ...defaults, ...validFields(readJson(db, key), schema) }
}

/** Changes some fields; throws a ZodError (nothing written) for an invalid value. */
function writeSettings<T extends object>(db: Db, key: string, schema: ObjectSchema<T>, current: T, change: Partial<T>): T {
  const next = schema.parse({ ...current, ...change }) as T
  writeJson(db, key, next)
  return next
}

const RETENTION_KEY = 'retention'
const CADENCES_KEY = 'cadences'

export function getRetentionSettings(db: Db): RetentionSettings {
  return readSettings(db, RETENTION_KEY, RetentionSettingsSchema, DEFAULT_RETENTION)
}

export function setRetentionSettings(db: Db, change: Partial<RetentionSettings>): RetentionSettings {
  return writeSettings(db, RETENTION_KEY, RetentionSettingsSchema, getRetentionSettings(db), change)
}

export function getCadenceSettings(db: Db): CadenceSettings {
  return readSettings(db, CADENCES_KEY, CadenceSettingsSchema, DEFAULT_CADENCES)
}

export function setCadenceSettings(db: Db, change: Partial<CadenceSettings>): CadenceSettings {
  return writeSettings(db, CADENCES_KEY, CadenceSettingsSchema, getCadenceSettings(db), change)
}

const THRESHOLDS_KEY = 'thresholds'
const DISPLAY_KEY = 'display'

export function getThresholds(db: Db): ReliabilityThresholds {
  const stored = readSettings(db, THRESHOLDS_KEY, ReliabilityThresholdsSchema, DEFAULT_THRESHOLDS)
  // The fields may each be valid and still not fit together (critical above warning).
  return ReliabilityThresholdsSchema.safeParse(stored).success ? stored : { ...DEFAULT_THRESHOLDS }
}

export function setThresholds(db: Db, thresholds: ReliabilityThresholds): ReliabilityThresholds {
  return writeSettings(db, THRESHOLDS_KEY, ReliabilityThresholdsSchema, getThresholds(db), thresholds)
}

export function getDisplaySettings(db: Db): DisplaySettings {
  return readSettings(db, DISPLAY_KEY, DisplaySettingsSchema, DEFAULT_DISPLAY)
}

export function setDisplaySettings(db: Db, change: Partial<DisplaySettings>): DisplaySettings {
  return writeSettings(db, DISPLAY_KEY, DisplaySettingsSchema, getDisplaySettings(db), change)
}

const ALERT_RULES_KEY = 'alertRules'

/** Each rule read on its own: one hand-spoiled rule falls back to its defaults, not the others. */
export function getAlertRules(db: Db): AlertRules {
  return readSettings(db, ALERT_RULES_KEY, AlertRulesSchema, DEFAULT_ALERT_RULES)
}

export function setAlertRules(db: Db, rules: Partial<AlertRules>): AlertRules {
  return writeSettings(db, ALERT_RULES_KEY, AlertRulesSchema, getAlertRules(db), rules)
}

const DESKTOP_KEY = 'desktop'

export function getDesktopSettings(db: Db): DesktopSettings {
  return readSettings(db, DESKTOP_KEY, DesktopSettingsSchema, DEFAULT_DESKTOP)
}

export function setDesktopSettings(db: Db, change: Partial<DesktopSettings>): DesktopSettings {
  return writeSettings(db, DESKTOP_KEY, DesktopSettingsSchema, getDesktopSettings(db), change)
}
