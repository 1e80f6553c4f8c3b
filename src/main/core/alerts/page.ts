// What the faces see of the alerts: a page for the alerts view, and the `alertsChanged` push
// with the tray's state (paused, blind, critical, warning or ok) and the count it shows.
import type { Alert, AlertsChanged, AlertsPage } from '../../../shared/alerts'
import type { Db } from '../store/db'
import { isoOrNull as iso } from '../store/queries/sql'
import { anyBlind, firingCount, listAlerts, notificationsPausedUntil, worstFiring, type AlertQuery } from './store'

export function alertsPage(db: Db, query: AlertQuery, now: number): AlertsPage {
  return {
    alerts: listAlerts(db, query, now),
    firing: firingCount(db),
    notificationsPausedUntil: iso(notificationsPausedUntil(db, now))
  }
}

export function trayState(db: Db, pollingPaused: boolean): AlertsChanged['tray'] {
  if (pollingPaused) return 'paused'
  if (anyBlind(db)) return 'blind'
  return worstFiring(db) ?? 'ok'
}

/** One push for one evaluation: every alert that fired or resolved in it, so faces can group them. */
export function alertsChanged(
  db: Db,
  now: number,
  change: { fired: Alert[]; resolved: Alert[] },
  pollingPaused: boolean
): AlertsChanged {
  return {
    at: new Date(now).toISOString(),
    firing: firingCount(db),
    tray: trayState(db, pollingPaused),
    fired: change.fired,
    resolved: change.resolved,
    notificationsPausedUntil: iso(notificationsPausedUntil(db, now))
  }
}
