// Alerts, live sessions and a core that answers the tray's requests, for the desktop tests.
import type { Alert, AlertsChanged, AlertsPage } from '../../../src/shared/alerts'
import type { LiveSession, Status } from '../../../src/shared/domain'
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
    state: 'firing',
    severity: 'critical',
    summary: 'Reliability 86.2, below the critical level 90',
    firedAt: AT,
    resolvedAt: null,
    snoozedUntil: null,
    transitions: [],
    ...overrides
  }
}

export function change(overrides: Partial<AlertsChanged> = {}): AlertsChanged {
  return { at: AT, firing: 0, tray: 'ok', fired: [], resolved: [], notificationsPausedUntil: null, ...overrides }
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
    ...overrides
  }
}

export function status(overrides: Partial<Status> = {}): Status {
  return {
    mode: 'demo',
    connectionName: 'Demo',
    pollState: 'ok',
    lastUpdateAt: AT,
    lastError: null,
    offlineSince: null,
    paused: false,
    pollIntervalSeconds: 15,
    ...overrides
  }
}

export interface CoreWorld {
  status: Status
  live: LiveSession[]
  page: AlertsPage
}

/** A fake core answering getStatus, listLiveSessions, listAlerts, setPaused and
 *  pauseNotifications from `world`, which tests change. */
export function answeringCore(world: CoreWorld, now: () => number = () => Date.parse(AT)) {
  const core = fakeCore()
  core.dispatch.mockImplementation(async (name: unknown, args: unknown) => {
    const a = args as Record<string, unknown>
    switch (name) {
      case 'getStatus':
        return { ok: true, value: world.status }
      case 'listLiveSessions':
        return { ok: true, value: world.live }
      case 'listAlerts':
        return { ok: true, value: world.page }
      case 'setPaused':
        world.status = { ...world.status, paused: a['paused'] as boolean }
        return { ok: true, value: world.status }
      case 'pauseNotifications': {
        const minutes = a['minutes'] as number
        world.page = {
          ...world.page,
          notificationsPausedUntil: minutes > 0 ? new Date(now() + minutes * 60_000).toISOString() : null
        }
        return { ok: true, value: world.page }
      }
      default:
        return { ok: false, error: { code: 'unknown-request', message: `no ${String(name)}` } }
    }
  })
  return core
}

export function world(overrides: Partial<CoreWorld> = {}): CoreWorld {
  return {
    status: status(),
    live: [liveSession()],
    page: { alerts: [], firing: 0, notificationsPausedUntil: null },
    ...overrides
  }
}
