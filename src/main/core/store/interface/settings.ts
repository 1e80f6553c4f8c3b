// The settings concern of the Store: the app-wide settings, one value per key, each read field
// by field through its schema (a missing or invalid field reads as its default).
import type { AlertRules } from '../../../../shared/alerts'
import type {
  CadenceSettings,
  DesktopSettings,
  DisplaySettings,
  ReliabilityThresholds,
  RetentionSettings
} from '../../../../shared/settings'

/** Every settings key and the value it holds. */
export interface SettingsBook {
  retention: RetentionSettings
  cadences: CadenceSettings
  thresholds: ReliabilityThresholds
  display: DisplaySettings
  alertRules: AlertRules
  desktop: DesktopSettings
}

export type SettingsKey = keyof SettingsBook

export interface SettingsReads {
  get<K extends SettingsKey>(key: K): Promise<SettingsBook[K]>
}

export interface SettingsStore extends SettingsReads {
  /** Merges `change` into the stored value and returns the new one; an invalid value throws
   *  (a ZodError) and writes nothing. */
  update<K extends SettingsKey>(key: K, change: Partial<SettingsBook[K]>): Promise<SettingsBook[K]>
}
