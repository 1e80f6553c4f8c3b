// Alerts, situations, live rows and a core that answers the tray's requests, for the desktop
// tests. Every situation is the core's own verdict (decideSituation) on the facts a test names,
// never a hand-written object.
import { decideSituation, type SituationFacts } from '../../../src/main/core/alerts/situation'
import type { Alert, AlertsChanged, AlertSituation, SessionAlert } from '../../../src/shared/alerts'
import type { LiveSession, SessionsChanged } from '../../../src/shared/domain'
import type { SessionKey } from '../../../src/shared/schema-parts'
import { fakeCore } from '../../support/fake-electron'

export const AT = '2025-03-10T09:00:00.000Z'

export function alert(overrides: Partial<Alert> = {}): Alert {
  return {
    id: 1,
    rule: 'reliability-below',
    connectionId: 'c1',
    connectionName: 'Contoso',
    eventSessionId: 's1',
    eventName: 'Town Hall',
    site: null,
    siteName: null,
    state: 'firing',
    severity: 'critical',
    summary: 'Reliability 86.2, below the critical level 90',
    firedAt: AT,
    resolvedAt: null,
    snoozedUntil: null,
    endReason: null,
    endKind: null,
    transitions: [],
    ...overrides
  }
}

/** What a situation is decided from, less the revision, its epoch and the time. */
export type Facts = Omit<SituationFacts, 'revision' | 'epoch' | 'now'>

/** The epoch of every revision here, unless a test says (a restarted core draws a new one). */
export const EPOCH = 'e1'

export const QUIET: Facts = { open: [], cooling: [], blind: [], unconfirmed: [], pollingPaused: false, notificationsPausedUntil: null }

/** The core's situation on these facts (nothing open, unless said). */
export function situation(facts: Partial<Facts> = {}, revision = 1, now = Date.parse(AT), epoch = EPOCH): AlertSituation {
  return decideSituation({ ...QUIET, ...facts, revision, epoch, now })
}

export function change(overrides: Partial<AlertsChanged> = {}): AlertsChanged {
  return { situation: situation(), changed: [], removed: [], fired: [], resolved: [], repeated: [], silenced: [], ...overrides }
}

export function sessionAlert(overrides: Partial<SessionAlert> = {}): SessionAlert {
  return { id: 1, rule: 'reliability-below', state: 'firing', severity: 'critical', summary: 'Reliability 86.2, below the critical level 90', ...overrides }
}

export function liveSession(overrides: Partial<LiveSession> = {}): LiveSession {
  return {
    connectionId: 'c1',
    connectionName: 'Contoso',
    eventSessionId: 's1',
    eventName: 'Town Hall',
    contentId: 'content-1',
    startedAt: AT,
    updatedAt: AT,
    hasEnded: false,
    viewersCount: 1200,
    reliabilityScore: 99,
    cdnTraffic: 0,
    ecdnTraffic: 0,
    lastPolledAt: AT,
    reliability: 99,
    health: 'good',
    levels: { warning: 95, critical: 90, source: 'settings' },
    alert: null,
    latestPoint: null,
    ...overrides
  }
}

export function sessionsChanged(revision: number, rows: LiveSession[] = [], removed: SessionKey[] = [], epoch = EPOCH): SessionsChanged {
  return { revision, epoch, at: AT, liveCount: rows.length, storedCount: rows.length, rows, removed }
}

export interface CoreWorld {
  live: LiveSession[]
  boardRevision: number
  /** The epoch of the board and the situation (a restarted core draws a new one). */
  epoch: string
  alerts: Alert[]
  facts: Facts
  revision: number
}

export function world(overrides: Partial<CoreWorld> = {}): CoreWorld {
  return { live: [liveSession()], boardRevision: 1, epoch: EPOCH, alerts: [], facts: QUIET, revision: 1, ...overrides }
}

/** A fake core answering listAlerts, listLiveSessions, getStatus, setPaused and
 *  pauseNotifications from `world`, which tests change. As the core does, setPaused and
 *  pauseNotifications push the new situation (alertsChanged) before they answer. */
export function answeringCore(w: CoreWorld, now: () => number = () => Date.parse(AT)) {
  const core = fakeCore()
  const current = (): AlertSituation => situation(w.facts, w.revision, now(), w.epoch)
  const publish = (facts: Partial<Facts>): AlertSituation => {
    w.facts = { ...w.facts, ...facts }
    w.revision++
    core.push('alertsChanged', change({ situation: current() }))
    return current()
  }
  const status = () => ({
    mode: 'demo',
    connectionName: 'Demo',
    connections: [
      {
        connectionId: 'demo',
        connectionName: 'Demo',
        state: w.facts.pollingPaused ? 'paused' : 'connected',
        tone: w.facts.pollingPaused ? 'muted' : 'ok',
        demo: true,
        since: null,
        reason: null,
        lastError: null,
        lastUpdateAt: AT,
        current: true
      }
    ],
    summary: { state: w.facts.pollingPaused ? 'paused' : 'connected', tone: w.facts.pollingPaused ? 'muted' : 'ok', lastUpdateAt: AT, outdated: false },
    problem: null,
    pollState: w.facts.pollingPaused ? 'paused' : 'ok',
    lastUpdateAt: AT,
    lastGoodAt: AT,
    lastError: null,
    offlineSince: null,
    paused: w.facts.pollingPaused,
    pollIntervalSeconds: 15
  })
  core.dispatch.mockImplementation(async (name: unknown, args: unknown) => {
    const a = args as Record<string, unknown>
    switch (name) {
      case 'getStatus':
        return { ok: true, value: status() }
      case 'listLiveSessions':
        return { ok: true, value: { revision: w.boardRevision, epoch: w.epoch, sessions: w.live } }
      case 'listAlerts':
        return { ok: true, value: { alerts: w.alerts, situation: current() } }
      case 'setPaused':
        publish({ pollingPaused: a['paused'] as boolean })
        return { ok: true, value: status() }
      case 'pauseNotifications': {
        const minutes = a['minutes'] as number
        const situation = publish({ notificationsPausedUntil: minutes > 0 ? now() + minutes * 60_000 : null })
        return { ok: true, value: { alerts: w.alerts, situation } }
      }
      default:
        return { ok: false, error: { code: 'unknown-request', message: `no ${String(name)}` } }
    }
  })
  return core
}
