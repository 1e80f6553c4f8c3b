// The app-wide settings of a Tx on PostgreSQL: one jsonb value per key, read field by field
// through its schema (store/settings.ts's rules: a missing or invalid field reads as its default).
// An update locks its key's row before it reads what it merges into, so two servers saving at
// once lose neither change.
import { AlertRulesSchema, DEFAULT_ALERT_RULES } from '../../../../shared/alerts'
import {
  CadenceSettingsSchema,
  DEFAULT_CADENCES,
  DEFAULT_DESKTOP,
  DEFAULT_DISPLAY,
  DEFAULT_RETENTION,
  DEFAULT_THRESHOLDS,
  DesktopSettingsSchema,
  DisplaySettingsSchema,
  ReliabilityThresholdsSchema,
  RetentionSettingsSchema
} from '../../../../shared/settings'
import type { SettingsBook, SettingsKey, SettingsStore } from '../interface/settings'
import { validFields, type ObjectSchema } from '../settings'
import { one, type Runners, type Sql } from './sql'

type Entry<T extends object> = { schema: ObjectSchema<T>; defaults: T }

const BOOK: { [K in SettingsKey]: Entry<SettingsBook[K]> } = {
  retention: { schema: RetentionSettingsSchema, defaults: DEFAULT_RETENTION },
  cadences: { schema: CadenceSettingsSchema, defaults: DEFAULT_CADENCES },
  thresholds: { schema: ReliabilityThresholdsSchema, defaults: DEFAULT_THRESHOLDS },
  display: { schema: DisplaySettingsSchema, defaults: DEFAULT_DISPLAY },
  alertRules: { schema: AlertRulesSchema, defaults: DEFAULT_ALERT_RULES },
  desktop: { schema: DesktopSettingsSchema, defaults: DEFAULT_DESKTOP }
}

/** The stored value field by field over the defaults; thresholds whose fields do not fit together
 *  (critical above warning) read as the defaults, as getThresholds does. */
function settingsOf<K extends SettingsKey>(key: K, stored: unknown): SettingsBook[K] {
  const { schema, defaults } = BOOK[key]
  const value = { ...defaults, ...validFields(stored, schema) }
  if (key === 'thresholds' && !ReliabilityThresholdsSchema.safeParse(value).success) return { ...defaults }
  return value
}

/** `change` merged into `current`; an invalid value throws a ZodError, before anything is written. */
const merged = <T extends object>(entry: Entry<T>, current: T, change: Partial<T>): T => entry.schema.parse({ ...current, ...change }) as T

async function stored(sql: Sql, key: SettingsKey, lock: boolean): Promise<unknown> {
  const row = await one<{ value_json: unknown }>(sql, `SELECT value_json FROM settings WHERE key = $1${lock ? ' FOR UPDATE' : ''}`, [key])
  return row?.value_json
}

export function settingsTable({ read, write }: Runners): SettingsStore {
  return {
    get: async (key) => settingsOf(key, await stored(read, key, false)),
    async update(key, change) {
      // A row to lock even for a key never saved: '{}' reads as the defaults, as no row does.
      await write(`INSERT INTO settings (key, value_json) VALUES ($1, '{}') ON CONFLICT (key) DO NOTHING`, [key])
      const current = settingsOf(key, await stored(write, key, true))
      const next = merged(BOOK[key], current, change)
      await write('UPDATE settings SET value_json = $2::jsonb WHERE key = $1', [key, JSON.stringify(next)])
      return next
    }
  }
}
