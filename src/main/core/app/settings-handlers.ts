// The settings requests and pushes. The app's settings (cadences, retention, levels, alert rules,
// the display with its units, the desktop's ways) are one set, the machine's administrator's. On a
// team server each user reads the screens in their own time zone, theme and sound over that set
// (store/user-settings.ts; what they never chose follows the server's), and every settings push an
// open page gets carries its own user's: alice's light theme never reaches bob's page.
import type { EventName, EventPayload, RequestContext, RequestHandlers } from '../../../shared/contract'
import type { AppSettings, CadenceSettings, DisplaySettings, ResolvedUnits } from '../../../shared/settings'
import { settingsSaved, type SettingsPartName } from '../fanout/settings-follower'
import type { ReadTx, Store } from '../store/interface/store'
import { detectsUnits, unitsOf } from '../store/units'
import { auditedUnit } from './audited-unit'
import type { EventHub } from './event-hub'
import type { EventListener } from './types'

export interface SettingsPlace {
  store: Store
  hub: EventHub
  /** New cadences were saved (polling restarts on them, unless the command line fixed them). */
  cadencesSaved(cadences: CadenceSettings): Promise<void>
  /** New reliability levels were saved: the live rows' health changes at once. */
  levelsSaved(): Promise<void>
  /** New alert rules were saved: a rule switched off ends its alerts now, not at the next poll. */
  alertRulesSaved(): Promise<void>
  /** This server among the team's, when there are several: each save says it saved it
   *  (fanout/settings-follower.ts), so the others apply it too. */
  origin?: string
}

export interface SettingsPart {
  handlers: Pick<RequestHandlers, 'getSettings' | 'saveSettings'>
  /** The pushes as `context` sees them: a team user's settings carry their own display. */
  pushesFor(listener: EventListener, context: RequestContext): EventListener
  /** Another server of the team saved these parts: applied here as a save here would be, and
   *  pushed to this server's pages. */
  savedElsewhere(parts: readonly SettingsPartName[]): Promise<void>
  /** Stops following the units; resolves once the push under way has gone. */
  stop(): Promise<void>
}

/** The units the display and the cached viewers resolve to, read in `tx`. */
async function unitsIn(tx: ReadTx, display: DisplaySettings): Promise<ResolvedUnits> {
  return unitsOf(display, detectsUnits(display) ? await tx.viewers.unitSample() : [])
}

/** The app's settings as one state (a unit that only reads); a team user's with their own display. */
function readSettings(store: Store, context: RequestContext | null): Promise<AppSettings> {
  return store.withTransaction(
    async (tx: ReadTx) => {
      const display = await tx.settings.get('display')
      const shared: AppSettings = {
        cadences: await tx.settings.get('cadences'),
        retention: await tx.settings.get('retention'),
        thresholds: await tx.settings.get('thresholds'),
        display,
        alertRules: await tx.settings.get('alertRules'),
        desktop: await tx.settings.get('desktop'),
        units: await unitsIn(tx, display)
      }
      if (!context?.team) return shared
      return { ...shared, display: { ...display, ...(await tx.team.users.display(context.actor.name)) } }
    },
    { readOnly: true }
  )
}

const readUnits = (store: Store): Promise<ResolvedUnits> =>
  store.withTransaction(async (tx: ReadTx) => unitsIn(tx, await tx.settings.get('display')), { readOnly: true })

export function settingsHandlers(place: SettingsPlace): SettingsPart {
  const { store, hub } = place
  const settingsFor = (context: RequestContext): Promise<AppSettings> => readSettings(store, context)

  // The shared settings' pushes go one at a time, each read when its turn comes: a push made for
  // units firming up never overtakes the one of a save made after it.
  let pushing: Promise<void> = Promise.resolve()
  let unitsPushed: string | undefined
  let unitsCheckWaiting = false
  /** Pushes the settings as they are now; with `onlyIfUnitsChanged`, only when the units changed
   *  since the last push (the first check learns what they are). */
  const push = (onlyIfUnitsChanged: boolean): Promise<void> => {
    const next = pushing.then(async () => {
      if (onlyIfUnitsChanged) {
        unitsCheckWaiting = false
        const units = JSON.stringify(await readUnits(store))
        const known = unitsPushed
        unitsPushed = units
        if (known === undefined || known === units) return
      }
      const settings = await readSettings(store, null)
      unitsPushed = JSON.stringify(settings.units)
      // Every window and the wall follow, each as its own user sees it (pushesFor).
      hub.emit('settingsChanged', settings)
    })
    pushing = next.catch(() => undefined)
    return next
  }

  // Units detected from the data firm up as viewer lists arrive: every window follows at once. A
  // check not yet begun covers every sessionsChanged before it. A failed read (the cache closing)
  // pushes nothing: the next poll's check reads again.
  const checkUnits = (): void => {
    if (unitsCheckWaiting) return
    unitsCheckWaiting = true
    push(true).catch(() => undefined)
  }
  checkUnits()
  const unsubscribe = hub.subscribe((name) => {
    if (name === 'sessionsChanged') checkUnits()
  })

  return {
    handlers: {
      getSettings: (_args, context) => settingsFor(context),
      saveSettings: async ({ cadences, retention, thresholds, display, alertRules, desktop }, context) => {
        // Validated by the contract already; all or none are written, with the audit row. A team
        // user's display is their own: the role table let only its personal fields through
        // (shared/team.ts).
        const savedCadences = await auditedUnit(store, context, async (tx) => {
          if (context.team && display && !(await tx.team.users.saveDisplay(context.actor.name, display))) {
            throw new Error(`there is no user named ${context.actor.name} any more`)
          }
          if (retention) await tx.settings.update('retention', retention)
          const newCadences = cadences ? await tx.settings.update('cadences', cadences) : null
          if (thresholds) await tx.settings.update('thresholds', thresholds)
          if (display && !context.team) await tx.settings.update('display', display)
          if (alertRules) await tx.settings.update('alertRules', alertRules)
          if (desktop) await tx.settings.update('desktop', desktop)
          const saved = Object.entries({ cadences, retention, thresholds, display, alertRules, desktop })
            .filter(([, part]) => part !== undefined)
            .map(([name]) => name as SettingsPartName)
          if (place.origin !== undefined && saved.length > 0) await settingsSaved(tx, place.origin, saved)
          return newCadences
        })
        if (savedCadences) await place.cadencesSaved(savedCadences)
        await push(false)
        if (thresholds) await place.levelsSaved()
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
    savedElsewhere: async (parts) => {
      if (parts.includes('cadences')) await place.cadencesSaved(await store.read.settings.get('cadences'))
      if (parts.includes('thresholds')) await place.levelsSaved()
      if (parts.includes('alertRules')) await place.alertRulesSaved()
      await push(false)
    },
    stop: async () => {
      unsubscribe()
      await pushing
    }
  }
}
