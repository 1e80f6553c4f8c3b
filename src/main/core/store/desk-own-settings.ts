// A desk's own desktop settings (start at login) in its own cache, read and saved while the desk
// uses a team server: the cache is polled by no one then, and is the desk's own again if it leaves.
import { openDatabase, type OpenOptions } from './db'
import type { DesktopSettings } from '../../../shared/settings'
import { getDesktopSettings, setDesktopSettings } from './settings'

export interface DeskOwnSettings {
  get(): DesktopSettings
  /** Validated by the contract already. */
  save(change: Partial<DesktopSettings>): void
  close(): void
}

export function openDeskOwnSettings(file: string, options: Pick<OpenOptions, 'nativeBinding'> = {}): DeskOwnSettings {
  const db = openDatabase(file, options)
  return {
    get: () => getDesktopSettings(db),
    save: (change) => void setDesktopSettings(db, change),
    close: () => db.close()
  }
}
