// The settings requests and pushes. The app's settings (cadences, retention, levels, alert rules,
// the display with its units, the desktop's ways) are one set, the machine's administrator's. On a
// team server each user reads the screens in their own time zone, theme and sound over that set
// (store/user-settings.ts; what they never chose follows the server's), and every settings push an
// open page gets carries its own user's: alice's light theme never reaches bob's page.
import type { EventName, EventPayload, RequestContext, RequestHandlers } from '../../../shared/contract'
import type { AppSettings } from '../../../shared/settings'
import type { Db } from '../store/db'
import {
  getAlertRules,
  getCadenceSettings,
  getDesktopSettings,
  getDisplaySettings,
  getRetentionSettings,
  getThresholds,
  setAlertRules,
  setCadenceSettings,
  setDesktopSettings,
  setDisplaySettings,
  setRetentionSettings,
  setThresholds
} from '../store/settings'
import { resolveUnits } from '../store/units'
import type { TeamStore } from '../team/team-store'
import type { EventHub } from './event-hub'
import type { EventListener } from './types'

export interface SettingsPlace {
  db: Db
  hub: EventHub
  users: Pick<TeamStore['users'], 'display' | 'saveDisplay'>
  /** New cadences were saved (polling restarts on them, unless the command line fixed them). */
  cadencesSaved(): Promise<void>
  /** New reliability levels were saved: the live rows' health changes at once. */
  levelsSaved(): void
  /** New alert rules were saved: a rule switched off ends its alerts now, not at the next poll. */
  alertRulesSaved(): Promise<void>
}

export interface SettingsPart {
  handlers: Pick<RequestHandlers, 'getSettings' | 'saveSettings'>
  /** The pushes as `context` sees them: a team user's settings carry their own display. */
  pushesFor(listener: EventListener, context: RequestContext): EventListener
  stop(): void
}

export function settingsHandlers(place: SettingsPlace): SettingsPart {
  const { db, hub, users } = place

  const appSettings = (): AppSettings => {
    const display = getDisplaySettings(db)
    return {
      cadences: getCadenceSettings(db),
      retention: getRetentionSettings(db),
      thresholds: getThresholds(db),
      display,
      alertRules: getAlertRules(db),
      desktop: getDesktopSettings(db),
      units: resolveUnits(db, display)
    }
  }

  const settingsFor = async (context: RequestContext): Promise<AppSettings> => {
    const shared = appSettings()
    if (!context.team) return shared
    return { ...shared, display: { ...shared.display, ...(await users.display(context.actor.name)) } }
  }

  // Units detected from the data firm up as viewer lists arrive: every window follows at once.
  let unitsPushed = JSON.stringify(resolveUnits(db, getDisplaySettings(db)))
  const stop = hub.subscribe((name) => {
    if (name !== 'sessionsChanged') return
    const units = JSON.stringify(resolveUnits(db, getDisplaySettings(db)))
    if (units === unitsPushed) return
    unitsPushed = units
    hub.emit('settingsChanged', appSettings())
  })

  return {
    handlers: {
      getSettings: (_args, context) => settingsFor(context),
      saveSettings: async ({ cadences, retention, thresholds, display, alertRules, desktop }, context) => {
        // A team user's display is their own: the role table let only its personal fields through
        // (shared/team.ts). It goes first: the one write that can still fail (a user just removed).
        if (context.team && display && !(await users.saveDisplay(context.actor.name, display))) {
          throw new Error(`there is no user named ${context.actor.name} any more`)
        }
        // Validated by the contract already; all or none of the app's are written.
        db.transaction(() => {
          if (retention) setRetentionSettings(db, retention)
          if (cadences) setCadenceSettings(db, cadences)
          if (thresholds) setThresholds(db, thresholds)
          if (display && !context.team) setDisplaySettings(db, display)
          if (alertRules) setAlertRules(db, alertRules)
          if (desktop) setDesktopSettings(db, desktop)
        })()
        if (cadences) await place.cadencesSaved()
        const saved = appSettings()
        // Every window and the wall follow, each as its own user sees it (pushesFor).
        unitsPushed = JSON.stringify(saved.units)
        hub.emit('settingsChanged', saved)
        if (thresholds) place.levelsSaved()
        if (alertRules) await place.alertRulesSaved()
        return settingsFor(context)
      }
    },
    pushesFor: (listener, context) => {
      if (!context.team) return listener
      return <E extends EventName>(name: E, payload: EventPayload<E>): void => {
        if (name !== 'settingsChanged') return listener(name, payload)
        // Read as the push goes: the store answers in order, so pushes keep theirs. A failed
        // read (the cache closing) sends nothing: the page keeps what it had.
        settingsFor(context).then(
          (own) => listener('settingsChanged', own),
          () => undefined
        )
      }
    },
    stop
  }
}
