// Alerts and alert situations as the core hands them out, for the renderer's specs: each with
// quiet defaults ("No alerts"; a firing warning) that a spec overrides where it matters.
import type { Alert, AlertSituation } from '../../src/shared/alerts'

export const situationOf = (over: Partial<AlertSituation> = {}): AlertSituation => ({
  revision: 1,
  epoch: 'e1',
  at: '2026-03-01T12:00:00Z',
  firing: 0,
  acknowledged: 0,
  worst: null,
  pending: 0,
  worstPending: null,
  snoozed: 0,
  muted: 0,
  cooldown: 0,
  blind: [],
  pollingPaused: false,
  notificationsPausedUntil: null,
  maintenance: [],
  tone: 'ok',
  tray: 'ok',
  headline: 'No alerts',
  ...over
})

export const alertOf = (id: number, over: Partial<Alert> = {}): Alert => ({
  id,
  rule: 'reliability-below',
  connectionId: 'c1',
  connectionName: 'Production',
  eventSessionId: 's1',
  eventName: 'Town hall',
  site: null,
  siteName: null,
  state: 'firing',
  severity: 'warning',
  summary: 'summary',
  firedAt: '2026-03-01T11:00:00Z',
  resolvedAt: null,
  snoozedUntil: null,
  endReason: null,
  endKind: null,
  transitions: [],
  ...over
})
