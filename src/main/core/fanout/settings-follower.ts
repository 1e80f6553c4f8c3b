// Settings saved on one server of a team take effect on every server (docs/scaling-plan.md
// section 3): the unit that saves them notifies `ew_settings` with the saving server's id and the
// parts saved; every other server reads them from the rows and applies them as its own save would
// (polling on new cadences, the board on new levels, alerts judged again on new rules) and pushes
// them to its pages. The saver hears itself too, and ignores it: it applied them already.
import type { AppSettings } from '../../../shared/settings'
import type { Store, Tx } from '../store/interface/store'

/** The parts of the app's settings a save may change. */
export type SettingsPartName = Exclude<keyof AppSettings, 'units'>
const PART_NAMES: readonly SettingsPartName[] = ['cadences', 'retention', 'thresholds', 'display', 'alertRules', 'desktop']

/** Says, on commit, that this server (`origin`) saved `parts`. */
export function settingsSaved(tx: Tx, origin: string, parts: readonly SettingsPartName[]): Promise<void> {
  return tx.notifications.send('ew_settings', `${origin} ${parts.join(',')}`)
}

/** A notification's origin and parts; null when it is not one (nothing is applied for it). */
export function parseSettingsSaved(payload: string): { origin: string; parts: SettingsPartName[] } | null {
  const [origin, list, ...rest] = payload.split(' ')
  if (!origin || list === undefined || rest.length > 0) return null
  const parts = list.split(',').filter((name): name is SettingsPartName => (PART_NAMES as readonly string[]).includes(name))
  return { origin, parts }
}

export interface SettingsFollowing {
  /** Another server saved these parts: apply them here, and push them to this server's pages. */
  savedElsewhere(parts: readonly SettingsPartName[]): Promise<void>
}

/**
 * Listens for settings saved by the other servers on `store`'s database and hands each save to
 * `following`, one at a time in the order heard; after a lost listening connection is back, every
 * part is applied again (a save may have gone unheard). Resolves to the stop.
 */
export async function followOtherServersSettings(
  store: Store,
  origin: string,
  following: SettingsFollowing,
  say: (line: string) => void = (line) => console.error(`eventwatch: ${line}`)
): Promise<() => Promise<void>> {
  const notifications = store.notifications
  if (!notifications) throw new Error('this store delivers no notifications (SQLite: one server per file), so there are no other servers to follow')
  let applying: Promise<void> = Promise.resolve()
  const apply = (parts: readonly SettingsPartName[]): void => {
    if (parts.length === 0) return
    applying = applying
      .then(() => following.savedElsewhere(parts))
      .catch((error: unknown) => say(`applying settings saved on another server failed (${error instanceof Error ? error.message : String(error)}); the next save applies them again`))
  }
  const stop = await notifications.listen('ew_settings', {
    notified: (payload) => {
      const saved = parseSettingsSaved(payload)
      if (saved && saved.origin !== origin) apply(saved.parts)
    },
    resumed: () => apply(PART_NAMES),
    dropped: (cause) => say(cause.message)
  })
  return async () => {
    await stop()
    await applying
  }
}
