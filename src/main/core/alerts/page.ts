// What the faces see of the alerts: the situation (read from the cache and the evaluator's
// cooldowns), a page for the alerts view, and the announcement of a change that the
// `alertsChanged` push carries with the situation, so no face has to ask again.
import type { Alert, AlertsChanged, AlertsPage, AlertSituation } from '../../../shared/alerts'
import { sessionKey } from '../../../shared/schema-parts'
import { silencingWindow, windowsNamed } from './maintenance'
import { windowsInForce } from './maintenance-in-force'
import type { AlertQuery } from '../store/interface/alerts'
import type { AlertChangeIds } from '../store/interface/core-state'
import type { ReadTx } from '../store/interface/store'
import type { CoolingCondition } from './evaluator'
import { decideSituation, type UnconfirmedConnection } from './situation'
import type { Applied } from './apply'

/** What the alerts' pages and announcements read: the Store's reads, or a unit's own. */
export type AlertReading = Pick<ReadTx, 'alerts' | 'maintenance' | 'sessions'>

export interface SituationSource {
  /** Grows with every alerts push, within its epoch. */
  revision: number
  epoch: string
  cooling(): Promise<readonly CoolingCondition[]>
  /** Polled connections without a successful poll yet, or offline. */
  unconfirmed(): readonly UnconfirmedConnection[]
  pollingPaused(): boolean
  /** How many connections are polled (absent: one). */
  connectionsPolled?(): number
}

export async function readSituation(read: AlertReading, source: SituationSource, now: number): Promise<AlertSituation> {
  return decideSituation({
    revision: source.revision,
    epoch: source.epoch,
    now,
    open: await read.alerts.openCounts(),
    cooling: (await source.cooling()).map((c) => c.severity),
    blind: await read.alerts.blind(),
    unconfirmed: source.unconfirmed(),
    pollingPaused: source.pollingPaused(),
    notificationsPausedUntil: await read.alerts.pausedUntil(now),
    maintenance: windowsNamed(await windowsInForce(read.maintenance, now)),
    connectionsPolled: source.connectionsPolled?.()
  })
}

export async function alertsPage(read: AlertReading, query: AlertQuery, situation: AlertSituation, now: number): Promise<AlertsPage> {
  return { alerts: await read.alerts.list(query, now), situation }
}

/** What an alert change announces: every alert it changed, less what a maintenance window holds
 *  back (named in `silenced`). The push adds the situation; the outbox queues its webhook events. */
export type Announcement = Omit<AlertsChanged, 'situation'>

/** The ids an announcement names, by what happened to them: the rows its push leaves (alert_changes). */
export const changeIdsOf = (said: Announcement): AlertChangeIds => ({
  fired: said.fired.map((a) => a.id),
  resolved: said.resolved.map((a) => a.id),
  changed: said.changed.map((a) => a.id),
  removed: said.removed,
  repeated: said.repeated.map((a) => a.id)
})

/** The announcement of one evaluation or action: every alert that changed, so faces patch and group them. */
export async function announcementOf(read: AlertReading, change: Applied, now: number): Promise<Announcement> {
  const changed = await read.alerts.many(change.changed)
  const byId = new Map(changed.map((a) => [a.id, a]))
  const pick = (ids: number[]) => ids.flatMap((id) => byId.get(id) ?? [])
  return announce(read, { changed, removed: change.removed, fired: pick(change.fired), resolved: pick(change.resolved), repeated: [] }, now)
}

/** Takes what a maintenance window silences out of the announcements, and says so. */
export async function announce(read: AlertReading, alerts: Omit<Announcement, 'silenced'>, now: number): Promise<Announcement> {
  const nothingToSay = alerts.fired.length + alerts.resolved.length + alerts.repeated.length + alerts.changed.length === 0
  const windows = nothingToSay ? [] : await windowsInForce(read.maintenance, now)
  if (windows.length === 0) return { ...alerts, silenced: [] }
  // A window scoped to a content id needs the sessions' own; read only then, once each.
  const contentIds = new Map<string, string | null>()
  if (windows.some((w) => w.contentId !== null)) {
    for (const { connectionId, eventSessionId } of [...alerts.fired, ...alerts.resolved, ...alerts.repeated, ...alerts.changed]) {
      if (eventSessionId === null || contentIds.has(sessionKey({ connectionId, eventSessionId }))) continue
      contentIds.set(sessionKey({ connectionId, eventSessionId }), (await read.sessions.row(connectionId, eventSessionId))?.content_id ?? null)
    }
  }
  const silenced = new Map<number, string>()
  const quiet = (list: Alert[]): Alert[] =>
    list.filter((a) => {
      const contentId = () => (a.eventSessionId === null ? null : (contentIds.get(sessionKey({ connectionId: a.connectionId, eventSessionId: a.eventSessionId })) ?? null))
      const window = silencingWindow(windows, a, now, contentId)
      if (window !== null) silenced.set(a.id, window)
      return window === null
    })
  const fired = quiet(alerts.fired)
  const resolved = quiet(alerts.resolved)
  const repeated = quiet(alerts.repeated)
  quiet(alerts.changed) // acknowledgements come from `changed`: webhooks check `silenced` for them
  return { ...alerts, fired, resolved, repeated, silenced: [...silenced].map(([id, window]) => ({ id, window })) }
}
