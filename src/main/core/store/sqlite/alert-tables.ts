// The alerts, webhooks and maintenance windows of a Tx, on one SQLite connection:
// today's synchronous store functions, each answered as a promise.
import {
  acknowledgeAlert,
  blindConnections,
  deleteAlert,
  firingCriticals,
  getAlert,
  getAlerts,
  alertHistory,
  insertAlert,
  lastResolvedTimes,
  listAlerts,
  moveAlert,
  notificationsPausedUntil,
  openAlertCounts,
  openAlerts,
  openSessionAlerts,
  openSiteAlerts,
  pauseNotifications,
  setAlertStreak,
  snoozeAlert,
  unresolvedAlerts,
  alertIdsOf
} from '../alerts'
import { writeOverride } from '../alert-overrides'
import { connectionOverrides } from '../session-levels'
import type { Db } from '../db'
import type { AlertStore } from '../interface/alerts'
import type { MaintenanceStore } from '../interface/maintenance'
import type { WebhookStore } from '../interface/webhooks'
import {
  deleteMaintenance,
  getMaintenance,
  insertMaintenance,
  listMaintenance,
  longestMaintenance,
  onceInForce,
  repeatCandidates,
  repeatZones
} from '../maintenance'
import {
  claimHeadOf,
  deleteWebhook,
  enqueueDelivery,
  findWebhookByName,
  getWebhook,
  insertWebhook,
  listWebhooks,
  markDelivered,
  markFailed,
  outboxHeads,
  outboxPending,
  outboxStats,
  pruneOutbox,
  releaseClaims
} from '../webhooks'
import type { Runners } from './runners'
import { pageBounds } from '../queries/sql'

export function alertTable(db: Db, { read, write }: Runners): AlertStore {
  return {
    open: (c) => read(() => openAlerts(db, c)),
    lastResolved: (c, since) => read(() => lastResolvedTimes(db, c, since)),
    get: (id) => read(() => getAlert(db, id)),
    list: (q, now) => read(() => listAlerts(db, q, now)),
    openCounts: () => read(() => openAlertCounts(db)),
    openAboutSessions: () => read(() => openSessionAlerts(db)),
    openAboutSites: (c, s) => read(() => openSiteAlerts(db, c, s)),
    pausedUntil: (now) => read(() => notificationsPausedUntil(db, now)),
    unresolved: () => read(() => unresolvedAlerts(db)),
    many: (ids) => read(() => getAlerts(db, ids)),
    historyPage: (q) => read(() => alertHistory(db, pageBounds(q.limit, q.offset))),
    idsOf: (c) => read(() => alertIdsOf(db, c)),
    blind: () => read(() => blindConnections(db)),
    firingCriticals: () => read(() => firingCriticals(db)),
    overrides: (c) => read(() => connectionOverrides(db, c)),
    insert: (c, alert, now) => write(() => insertAlert(db, c, alert, now)),
    move: (id, m, now) => write(() => moveAlert(db, id, m.state, m.severity, m.value, m.note, now, m.summary, m.endKind)),
    setStreak: (id, streak) => write(() => setAlertStreak(db, id, streak)),
    discard: (id) => write(() => deleteAlert(db, id)),
    acknowledge: (id, note, actor, now) => write(() => acknowledgeAlert(db, id, note, now, actor)),
    snooze: (id, choice, actor, now) => write(() => snoozeAlert(db, id, choice, now, actor)),
    pause: (minutes, now) => write(() => pauseNotifications(db, minutes, now)),
    setOverride: (c, s, next) => write(() => writeOverride(db, c, s, next))
  }
}

export function webhookTable(db: Db, { read, write }: Runners): WebhookStore {
  return {
    list: () => read(() => listWebhooks(db)),
    get: (id) => read(() => getWebhook(db, id)),
    findByName: (name) => read(() => findWebhookByName(db, name)),
    outboxHeads: () => read(() => outboxHeads(db)),
    stats: (id) => read(() => outboxStats(db, id)),
    pending: () => read(() => outboxPending(db)),
    add: (settings, kept, id, now) => write(() => insertWebhook(db, settings, kept, now, id)),
    remove: (id) => write(() => deleteWebhook(db, id)),
    enqueue: (delivery, now) => write(() => enqueueDelivery(db, delivery, now)),
    claimHead: (id, now, claim) => write(() => claimHeadOf(db, id, now, claim)),
    delivered: (delivery, now) => write(() => markDelivered(db, delivery, now)),
    failed: (delivery, error, now, retryAt) => write(() => markFailed(db, delivery, error, now, retryAt)),
    release: (by) => write(() => releaseClaims(db, by)),
    prune: (before) => write(() => pruneOutbox(db, before))
  }
}

export function maintenanceTable(db: Db, { read, write }: Runners): MaintenanceStore {
  return {
    list: () => read(() => listMaintenance(db)),
    get: (id) => read(() => getMaintenance(db, id)),
    longest: (repeat) => read(() => longestMaintenance(db, repeat)),
    onceInForce: (now, longest) => read(() => onceInForce(db, now, longest)),
    zones: (repeat) => read(() => repeatZones(db, repeat)),
    repeatCandidates: (lookup) => read(() => repeatCandidates(db, lookup)),
    add: (window, createdBy, now) => write(() => insertMaintenance(db, window, now, createdBy)),
    remove: (id) => write(() => deleteMaintenance(db, id))
  }
}
