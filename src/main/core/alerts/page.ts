// What the faces see of the alerts: the situation (read from the cache and the evaluator's
// cooldowns), a page for the alerts view, and the announcement of a change that the
// `alertsChanged` push carries with the situation, so no face has to ask again.
import type { Alert, AlertsChanged, AlertsPage, AlertSituation } from '../../../shared/alerts'
import { contentIdOf } from '../store/maintenance'
import { silencingWindow, windowsNamed } from './maintenance'
import { windowsInForce } from './maintenance-in-force'
import type { Db } from '../store/db'
import type { CoolingCondition } from './evaluator'
import { decideSituation, type UnconfirmedConnection } from './situation'
import { blindConnections, getAlerts, listAlerts, notificationsPausedUntil, openAlertCounts, type AlertQuery } from '../store/alerts'
import type { Applied } from './apply'

export interface SituationSource {
  /** Grows with every alerts push, within its epoch. */
  revision: number
  epoch: string
  cooling(): readonly CoolingCondition[]
  /** Polled connections without a successful poll yet, or offline. */
  unconfirmed(): readonly UnconfirmedConnection[]
  pollingPaused(): boolean
  /** How many connections are polled (absent: one). */
  connectionsPolled?(): number
}

export function readSituation(db: Db, source: SituationSource, now: number): AlertSituation {
  return decideSituation({
    revision: source.revision,
    epoch: source.epoch,
    now,
    open: openAlertCounts(db),
    cooling: source.cooling().map((c) => c.severity),
    blind: blindConnections(db),
    unconfirmed: source.unconfirmed(),
    pollingPaused: source.pollingPaused(),
    notificationsPausedUntil: notificationsPausedUntil(db, now),
    maintenance: windowsNamed(windowsInForce(db, now)),
    connectionsPolled: source.connectionsPolled?.()
  })
}

export function alertsPage(db: Db, query: AlertQuery, situation: AlertSituation, now: number): AlertsPage {
  return { alerts: listAlerts(db, query, now), situation }
}

/** What an alert change announces: every alert it changed, less what a maintenance window holds
 *  back (named in `silenced`). The push adds the situation; the outbox queues its webhook events. */
export type Announcement = Omit<AlertsChanged, 'situation'>

/** The announcement of one evaluation or action: every alert that changed, so faces patch and group them. */
export function announcementOf(db: Db, change: Applied, now: number): Announcement {
  const changed = getAlerts(db, change.changed)
  const byId = new Map(changed.map((a) => [a.id, a]))
  const pick = (ids: number[]) => ids.flatMap((id) => byId.get(id) ?? [])
  return announce(db, { changed, removed: change.removed, fired: pick(change.fired), resolved: pick(change.resolved), repeated: [] }, now)
}

/** Takes what a maintenance window silences out of the announcements, and says so. */
export function announce(db: Db, alerts: Omit<Announcement, 'silenced'>, now: number): Announcement {
  const nothingToSay = alerts.fired.length + alerts.resolved.length + alerts.repeated.length + alerts.changed.length === 0
  const windows = nothingToSay ? [] : windowsInForce(db, now)
  if (windows.length === 0) return { ...alerts, silenced: [] }
  const silenced = new Map<number, string>()
  const quiet = (list: Alert[]): Alert[] =>
    list.filter((a) => {
      const window = silencingWindow(windows, a, now, () => (a.eventSessionId === null ? null : contentIdOf(db, a.connectionId, a.eventSessionId)))
      if (window !== null) silenced.set(a.id, window)
      return window === null
    })
  const fired = quiet(alerts.fired)
  const resolved = quiet(alerts.resolved)
  const repeated = quiet(alerts.repeated)
  quiet(alerts.changed) // acknowledgements come from `changed`: webhooks check `silenced` for them
  return { ...alerts, fired, resolved, repeated, silenced: [...silenced].map(([id, window]) => ({ id, window })) }
}
