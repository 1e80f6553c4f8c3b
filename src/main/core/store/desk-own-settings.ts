// A desk's own desktop settings (start at login) in its own cache, read and saved while the desk
// uses a team server: the cache is polled by no one then, and is the desk's own again if it leaves.
import type { DesktopSettings } from '../../../shared/settings'
import type { OpenOptions } from './db'
import { openSqliteStore } from './sqlite/sqlite-store'

export interface DeskOwnSettings {
  get(): Promise<DesktopSettings>
  /** Validated by the contract already. */
  save(change: Partial<DesktopSettings>): Promise<void>
  close(): Promise<void>
}

export function openDeskOwnSettings(file: string, options: Pick<OpenOptions, 'nativeBinding'> = {}): DeskOwnSettings {
  const store = openSqliteStore(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
  return {
    get: () => store.read.settings.get('desktop'),
    save: async (change) => {
      await store.withTransaction((tx) => tx.settings.update('desktop', change))
    },
    close: () => store.close()
  }
}
