// The app API contract (src/shared/contract.ts) and its runtime gate, createDispatch.
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { createDispatch, type Handlers } from '../../src/main/core/app/dispatch'
import { AlertNotFoundError } from '../../src/main/core/store/alerts'
import { ConnectionError } from '../../src/main/core/connections/errors'
import {
  eventNames,
  events,
  isEventName,
  isRequestName,
  requestNames,
  requests
} from '../../src/shared/contract'
import type { LiveSession, Status } from '../../src/shared/domain'
import { DEFAULT_ALERT_RULES, type AlertsPage, type AlertSituation } from '../../src/shared/alerts'
import { situationOf } from '../support/alert-fixtures'

const SITUATION: AlertSituation = situationOf({ at: '2025-01-01T00:00:00.000Z' })

const ALERTS_PAGE: AlertsPage = { alerts: [], situation: SITUATION }

const STATUS: Status = {
  mode: 'demo',
  connectionName: 'Demo data',
  connections: [
    {
      connectionId: 'demo',
      connectionName: 'Demo data',
      state: 'waiting',
      tone: 'muted',
      demo: true,
      since: null,
      reason: null,
      lastError: null,
      lastUpdateAt: null,
      current: false
    }
  ],
  summary: { state: 'waiting', tone: 'muted', lastUpdateAt: null, outdated: true },
  problem: null,
  pollState: 'ok',
  lastUpdateAt: null,
  lastGoodAt: null,
  lastError: null,
  offlineSince: null,
  paused: false,
  pollIntervalSeconds: 15
}

const SESSION: LiveSession = {
  connectionId: 'demo',
  connectionName: 'Demo data',
  eventSessionId: 's-1',
  eventName: null,
  contentId: 'c-1',
  startedAt: '2025-01-01T00:00:00.000Z',
  updatedAt: '2025-01-01T00:01:00.000Z',
  hasEnded: false,
  viewersCount: 3,
  reliabilityScore: 99,
  cdnTraffic: 1,
  ecdnTraffic: 2,
  lastPolledAt: null,
  reliability: 99,
  health: 'good',
  levels: { warning: 95, critical: 90, source: 'settings' },
  alert: null,
  latestPoint: null
}

const MAINTENANCE = {
  id: 1,
  name: 'Patch night',
  startsAt: '2026-11-28T22:00:00.000Z',
  endsAt: '2026-11-29T02:00:00.000Z',
  repeat: 'none',
  timeZone: 'Europe/Berlin',
  connectionId: null,
  connectionName: null,
  contentId: null,
  eventSessionId: null,
  createdBy: null,
  inForce: false,
  broad: ['everything'] as ('everything' | 'long')[]
} as const

const WEBHOOK = {
  id: 'w1',
  name: 'Team channel',
  url: 'https://hooks.example.com/x',
  format: 'slack',
  signed: false,
  pending: 0,
  failed: 0,
  lastDeliveredAt: null,
  lastError: null
} as const

const CONNECTION = {
  id: 'c1',
  name: 'Tenant A',
  baseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com',
  platformId: 'p',
  tenantId: 't',
  clientId: 'client',
  origin: null,
  referer: null,
  proxyUrl: null,
  proxyPasswordStored: false,
  caCertificate: null,
  enabled: true,
  lookbackDays: 7,
  isDemo: false,
  secretStored: true,
  reliabilityScale: { setting: 'auto', value: '0-100', source: 'default', reason: 'r' },
  polled: true
} as const

const SETTINGS = {
  cadences: { discoverySeconds: 30, detailSeconds: 15, viewersSeconds: 60 },
  retention: { snapshotsDays: 90, viewerListsDays: 90, sessionsDays: null, alertsDays: 365, auditDays: 365 },
  thresholds: { warning: 95, critical: 90 },
  display: { timeZone: 'local', theme: 'dark', trafficUnit: 'auto', viewerTimeUnit: 'auto', alertSound: 'on', warningSound: 'off' } as const,
  alertRules: DEFAULT_ALERT_RULES,
  desktop: { startAtLogin: false },
  units: {
    trafficUnit: { value: 'bytes', source: 'default', reason: 'r' },
    viewerTimeUnit: { value: 'seconds', source: 'default', reason: 'r' }
  } as const
}

function fakeHandlers() {
  return {
    getStatus: vi.fn(async () => STATUS),
    getIdentity: vi.fn(() => ({ name: 'local', role: 'admin' as const, team: false })),
    listAudit: vi.fn(() => []),
    addUser: vi.fn(() => ({ user: { id: 1, name: 'val', role: 'viewer' as const, createdAt: '2025-01-01T00:00:00.000Z', rotatedAt: null, lastSeenAt: null }, token: 'ewu_x' })),
    rotateUserToken: vi.fn(() => ({ token: 'ewu_y' })),
    removeUser: vi.fn(() => ({ removed: true })),
    getTeamServer: vi.fn(() => null),
    joinTeamServer: vi.fn(async () => ({ name: 'alice', role: 'operator' as const, team: true })),
    leaveTeamServer: vi.fn(async () => ({ left: false })),
    listLiveSessions: vi.fn(async () => ({ revision: 3, epoch: 'e1', sessions: [SESSION] })),
    getSession: vi.fn(async (_args: { connectionId: string; eventSessionId: string }) => SESSION),
    refreshNow: vi.fn(() => ({ startedAt: '2025-01-01T00:00:00.000Z' })),
    listConnections: vi.fn(async () => [CONNECTION]),
    saveConnection: vi.fn(async () => CONNECTION),
    deleteConnection: vi.fn(async () => ({ deleted: true })),
    setConnectionEnabled: vi.fn(async () => CONNECTION),
    testConnection: vi.fn(async () => ({ ok: true, steps: [] })),
    testConnectionDraft: vi.fn(async () => ({ ok: true, steps: [] })),
    listWebhooks: vi.fn(async () => []),
    addWebhook: vi.fn(async () => WEBHOOK),
    deleteWebhook: vi.fn(async () => ({ deleted: true })),
    testWebhook: vi.fn(async () => ({ ok: true, message: 'delivered: HTTP 200 in 5 ms' })),
    listMaintenance: vi.fn(async () => []),
    addMaintenance: vi.fn(async () => MAINTENANCE),
    deleteMaintenance: vi.fn(async () => ({ deleted: true })),
    listDiagnostics: vi.fn(async () => []),
    fetchRange: vi.fn(async () => ({ listed: 0 })),
    refreshSession: vi.fn(async () => ({ viewers: 0 })),
    setPaused: vi.fn(async () => STATUS),
    getSettings: vi.fn(async () => SETTINGS),
    saveSettings: vi.fn(async () => SETTINGS),
    sessionChart: vi.fn(async () => ({ points: [], total: 0, bucketed: false })),
    sessionStory: vi.fn(async () => null),
    sessionReport: vi.fn(async () => null),
    listSiteNames: vi.fn(async () => []),
    setSiteName: vi.fn(async () => []),
    liveTrends: vi.fn(async () => ({ trends: [] })),
    viewerPage: vi.fn(async () => ({ rows: [], total: 0, fetchedAt: null })),
    viewerDetail: vi.fn(async () => null),
    breakdown: vi.fn(async () => []),
    pastSessions: vi.fn(async () => ({ rows: [], total: 0, cachedAsOf: null })),
    exportChunk: vi.fn(async () => ({ records: [], total: 0 })),
    listAlerts: vi.fn(async () => ALERTS_PAGE),
    acknowledgeAlert: vi.fn(async () => ALERTS_PAGE),
    snoozeAlert: vi.fn(async () => ALERTS_PAGE),
    setSessionAlertOverride: vi.fn(async () => ({ muted: false, thresholds: null })),
    pauseNotifications: vi.fn(async () => ALERTS_PAGE)
  } satisfies Handlers
}

function anyHandlerCalled(h: ReturnType<typeof fakeHandlers>): boolean {
  return Object.values(h).some((fn) => fn.mock.calls.length > 0)
}

describe('contract', () => {
  it('gives every request a zod schema for its arguments and its result', () => {
    expect(requestNames.length).toBeGreaterThan(0)
    for (const [name, spec] of Object.entries(requests)) {
      expect(spec.args, `${name}.args`).toBeInstanceOf(z.ZodType)
      expect(spec.result, `${name}.result`).toBeInstanceOf(z.ZodType)
    }
  })

  it('names in every request the least role that may make it (issue 25: the role is part of the contract)', () => {
    for (const [name, spec] of Object.entries(requests)) {
      expect(['viewer', 'operator', 'admin'], `${name}.role`).toContain((spec as { role?: unknown }).role)
    }
  })

  it('gives every event a zod schema for its payload', () => {
    expect(eventNames.length).toBeGreaterThan(0)
    for (const [name, schema] of Object.entries(events)) {
      expect(schema, name).toBeInstanceOf(z.ZodType)
    }
  })

  it('lists exactly the requests and events it defines', () => {
    expect([...requestNames].sort()).toEqual(Object.keys(requests).sort())
    expect([...eventNames].sort()).toEqual(Object.keys(events).sort())
    for (const name of requestNames) {
      expect(isRequestName(name)).toBe(true)
      expect(requests[name].args).toBeInstanceOf(z.ZodType)
    }
    for (const name of eventNames) expect(isEventName(name)).toBe(true)
  })

  it('gives every handler result a shape its result schema accepts (the fixtures here included)', async () => {
    const h = fakeHandlers()
    for (const name of requestNames) {
      const value: unknown = await (h[name] as () => unknown)()
      expect(requests[name].result.safeParse(value).success, name).toBe(true)
    }
  })

  it('pushes alerts with their situation and live rows with their keys, refusing the old count-only shapes', () => {
    const alertsPush = { situation: SITUATION, changed: [], removed: [7], fired: [], resolved: [], repeated: [], silenced: [] }
    expect(events.alertsChanged.safeParse(alertsPush).success).toBe(true)
    expect(events.alertsChanged.safeParse({ fired: [], resolved: [], firing: 0, tray: 'ok' }).success).toBe(false)
    const sessionsPush = {
      revision: 4,
      epoch: 'e1',
      at: '2025-01-01T00:00:00.000Z',
      liveCount: 1,
      storedCount: 5,
      rows: [SESSION],
      removed: [{ connectionId: 'demo', eventSessionId: 's-0' }]
    }
    expect(events.sessionsChanged.safeParse(sessionsPush).success).toBe(true)
    expect(events.sessionsChanged.safeParse({ at: sessionsPush.at, liveCount: 1, storedCount: 5 }).success).toBe(false)
    expect(events.settingsChanged.safeParse(SETTINGS).success).toBe(true)
  })

  it('does not take inherited object keys for request or event names', () => {
    for (const name of ['__proto__', 'toString', 'constructor', 'hasOwnProperty', 'valueOf', '']) {
      expect(isRequestName(name), name).toBe(false)
      expect(isEventName(name), name).toBe(false)
    }
    expect(isRequestName(undefined)).toBe(false)
    expect(isRequestName(42)).toBe(false)
    expect(isRequestName({ toString: () => 'getStatus' })).toBe(false)
  })
})

describe('createDispatch', () => {
  it('answers unknown-request for a name that is not in the contract, without calling a handler', async () => {
    const h = fakeHandlers()
    const dispatch = createDispatch(h)
    for (const name of ['nope', '__proto__', 'toString', 'constructor', 42, null, undefined]) {
      const result = await dispatch(name, {})
      expect(result.ok, String(name)).toBe(false)
      if (!result.ok) expect(result.error.code).toBe('unknown-request')
    }
    expect(anyHandlerCalled(h)).toBe(false)
  })

  it('keeps the echoed name short in the unknown-request message', async () => {
    const dispatch = createDispatch(fakeHandlers())
    const result = await dispatch('x'.repeat(10_000), {})
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.message.length).toBeLessThan(200)
  })

  it.each([
    ['a non-object', 'getStatus', 'hello'],
    ['an array', 'getStatus', []],
    ['a number', 'listLiveSessions', 7],
    ['an extra key on a no-arg request', 'getStatus', { extra: 1 }],
    ['an extra key', 'getSession', { connectionId: 'demo', eventSessionId: 's-1', sql: 'drop' }],
    ['a missing key', 'getSession', { connectionId: 'demo' }],
    ['a wrong-typed value', 'getSession', { connectionId: 'demo', eventSessionId: 42 }],
    ['an empty string', 'getSession', { connectionId: '', eventSessionId: 's-1' }],
    ['a too-long string', 'getSession', { connectionId: 'demo', eventSessionId: 'x'.repeat(201) }]
  ])('rejects %s as invalid-arguments and does not call the handler', async (_what, name, args) => {
    const h = fakeHandlers()
    const dispatch = createDispatch(h)
    const result = await dispatch(name, args)
    expect(result.ok).toBe(false)
    if (!result.ok) {
      expect(result.error.code).toBe('invalid-arguments')
      expect(result.error.message).toContain(name)
    }
    expect(anyHandlerCalled(h)).toBe(false)
  })

  it('names the offending field in an invalid-arguments message', async () => {
    const dispatch = createDispatch(fakeHandlers())
    const result = await dispatch('getSession', { connectionId: 'demo', eventSessionId: 42 })
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error.message).toContain('eventSessionId')
    // Apart too, for a face that names its own control (the CLI's flags).
    if (!result.ok) expect(result.error.issue).toEqual({ field: 'eventSessionId', problem: expect.stringMatching(/string/) })
  })

  it('passes valid arguments to the handler, parsed, and wraps its value as ok', async () => {
    const h = fakeHandlers()
    const dispatch = createDispatch(h)
    const args = { connectionId: 'demo', eventSessionId: 'x'.repeat(200) }
    const result = await dispatch('getSession', args)
    expect(result).toEqual({ ok: true, value: SESSION })
    expect(h.getSession).toHaveBeenCalledTimes(1)
    expect(h.getSession).toHaveBeenCalledWith(args, expect.objectContaining({ actor: expect.objectContaining({ role: 'admin' }) }))
    // The parsed copy, not the caller's object.
    expect(h.getSession.mock.calls[0]?.[0]).not.toBe(args)
    expect(h.getStatus).not.toHaveBeenCalled()
  })

  it('refuses a request above the role before its handler runs, and reports only successful changes', async () => {
    const h = fakeHandlers()
    const changed = vi.fn()
    const dispatch = createDispatch(h, { changed })
    const as = (role: 'viewer' | 'operator' | 'admin') => ({ actor: { name: role, role }, team: true })
    expect(await dispatch('acknowledgeAlert', { id: 3 }, as('viewer'))).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    expect(await dispatch('saveSettings', { display: { trafficUnit: 'bytes' } }, as('operator'))).toMatchObject({ ok: false, error: { code: 'forbidden' } })
    expect(await dispatch('deleteConnection', { id: 'c' }, as('operator'))).toMatchObject({ ok: false, error: { message: expect.stringMatching(/administrator/) } })
    expect(h.acknowledgeAlert).not.toHaveBeenCalled()
    expect(h.saveSettings).not.toHaveBeenCalled()
    expect(h.deleteConnection).not.toHaveBeenCalled()
    expect(changed).not.toHaveBeenCalled()

    expect(await dispatch('listAlerts', {}, as('viewer'))).toMatchObject({ ok: true })
    expect(await dispatch('acknowledgeAlert', { id: 3 }, as('operator'))).toMatchObject({ ok: true })
    expect(await dispatch('saveSettings', { thresholds: { warning: 90, critical: 80 } }, as('operator'))).toMatchObject({ ok: true })
    expect(await dispatch('deleteConnection', { id: 'c' }, as('admin'))).toMatchObject({ ok: true })
    // Reads are not changes: the audit hook hears of the three changes only, with their author.
    expect(changed.mock.calls.map(([name, , context]) => [name, context.actor.name])).toEqual([
      ['acknowledgeAlert', 'operator'],
      ['saveSettings', 'operator'],
      ['deleteConnection', 'admin']
    ])
  })

  it('accepts undefined (and {}) arguments for a request that takes none', async () => {
    const h = fakeHandlers()
    const dispatch = createDispatch(h)
    expect(await dispatch('getStatus', undefined)).toEqual({ ok: true, value: STATUS })
    expect(await dispatch('listLiveSessions', {})).toEqual({ ok: true, value: { revision: 3, epoch: 'e1', sessions: [SESSION] } })
    expect(await dispatch('refreshNow', undefined)).toEqual({
      ok: true,
      value: { startedAt: '2025-01-01T00:00:00.000Z' }
    })
    expect(h.getStatus).toHaveBeenCalledWith({}, expect.anything())
  })

  it('turns a handler that throws or rejects into an internal error, never a rejection', async () => {
    const h = fakeHandlers()
    h.getStatus.mockImplementation(() => {
      throw new Error('database is locked')
    })
    h.listLiveSessions.mockImplementation(async () => {
      throw new Error('disk I/O error')
    })
    h.refreshNow.mockImplementation(() => {
      throw 'a bare string'
    })
    const dispatch = createDispatch(h)

    const a = await dispatch('getStatus', {})
    expect(a.ok).toBe(false)
    if (!a.ok) {
      expect(a.error.code).toBe('internal')
      expect(a.error.message).toContain('database is locked')
    }
    const b = await dispatch('listLiveSessions', {})
    expect(b.ok).toBe(false)
    if (!b.ok) expect(b.error.code).toBe('internal')
    const c = await dispatch('refreshNow', {})
    expect(c.ok).toBe(false)
    if (!c.ok) expect(c.error.code).toBe('internal')
  })

  it('answers an error of a kind (not-found, configuration) with that kind as its code, keeping its message', async () => {
    const h = fakeHandlers()
    h.getStatus.mockImplementation(() => {
      throw new ConnectionError('not-found', 'no connection with id x')
    })
    h.listLiveSessions.mockImplementation(async () => {
      throw new AlertNotFoundError(7)
    })
    h.refreshNow.mockImplementation(() => {
      throw new ConnectionError('configuration', 'bad settings')
    })
    const dispatch = createDispatch(h)
    expect(await dispatch('getStatus', {})).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'Reading the polling status failed: no connection with id x' }
    })
    expect(await dispatch('listLiveSessions', {})).toEqual({
      ok: false,
      error: { code: 'not-found', message: 'Reading the live sessions failed: there is no alert 7' }
    })
    // Every kind of the taxonomy keeps its kind (issue 25: the CLI's exit code says who fixes it);
    // an Error of no kind is internal (above).
    expect(await dispatch('refreshNow', {})).toEqual({ ok: false, error: { code: 'configuration', message: 'Refreshing every live session failed: bad settings' } })
  })

  // Over IPC the name is whatever the sender put in the message; String(x) throws a TypeError
  // for an object with no prototype, and the AppCore contract says dispatch never throws.
  it('never rejects for a name that cannot be turned into a string', async () => {
    const dispatch = createDispatch(fakeHandlers())
    await expect(dispatch(Symbol('getStatus'), {})).resolves.toMatchObject({ ok: false })
    await expect(dispatch(Object.create(null), {})).resolves.toMatchObject({
      ok: false,
      error: { code: 'unknown-request' }
    })
  })

  it('never rejects when a handler throws a value that cannot be turned into a string', async () => {
    const h = fakeHandlers()
    h.getStatus.mockImplementation(() => {
      throw Object.create(null)
    })
    const dispatch = createDispatch(h)
    await expect(dispatch('getStatus', {})).resolves.toMatchObject({ ok: false, error: { code: 'internal' } })
  })

  it('validates connection settings before a handler sees them', async () => {
    const h = fakeHandlers()
    const dispatch = createDispatch(h)
    const settings = {
      name: 'Tenant A',
      baseUrl: 'http://api.example.com',
      authUrl: 'https://auth.example.com',
      platformId: 'p',
      tenantId: 't',
      clientId: 'client'
    }
    const plainHttp = await dispatch('saveConnection', { settings })
    expect(plainHttp).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
    expect(plainHttp.ok || plainHttp.error.message).toContain('https')
    const loopback = await dispatch('saveConnection', { settings: { ...settings, baseUrl: 'http://127.0.0.1:8080' }, secret: 's' })
    expect(loopback.ok).toBe(true)
    expect(h.saveConnection).toHaveBeenCalledTimes(1)
    expect(await dispatch('fetchRange', { connectionId: 'c1', from: 'yesterday', to: '2025-01-02T00:00:00Z' })).toMatchObject({
      ok: false,
      error: { code: 'invalid-arguments' }
    })
    expect(await dispatch('listDiagnostics', { limit: 0 })).toMatchObject({ ok: false })
    expect(h.fetchRange).not.toHaveBeenCalled()
  })

  it("takes Diagnostics' connection filter only as an id or null (the app's own)", async () => {
    const h = fakeHandlers()
    const dispatch = createDispatch(h)
    for (const connectionId of ['', 42, 'x'.repeat(201), ['c1']]) {
      expect(await dispatch('listDiagnostics', { connectionId }), JSON.stringify(connectionId)).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
    }
    expect(h.listDiagnostics).not.toHaveBeenCalled()
    for (const connectionId of ['c1', null]) expect(await dispatch('listDiagnostics', { limit: 10, connectionId })).toMatchObject({ ok: true })
    expect(h.listDiagnostics.mock.calls.map((call) => (call as unknown[])[0])).toEqual([{ limit: 10, connectionId: 'c1' }, { limit: 10, connectionId: null }])
  })

  it('refuses settings out of range, and unknown ones, before a handler sees them', async () => {
    const h = fakeHandlers()
    const dispatch = createDispatch(h)
    for (const args of [
      { cadences: { detailSeconds: 1 } },
      { cadences: { viewersSeconds: 5 } },
      { retention: { snapshotsDays: 0 } },
      { retention: { snapshotsDays: 1.5 } },
      { cadences: { everySecond: true } },
      { alertRules: { ...DEFAULT_ALERT_RULES, reliabilityBelow: { ...DEFAULT_ALERT_RULES.reliabilityBelow, pendingPolls: 0 } } },
      { alertRules: { ...DEFAULT_ALERT_RULES, monitorBlind: { enabled: true } } },
      { alertRules: { reliabilityBelow: DEFAULT_ALERT_RULES.reliabilityBelow } }
    ]) {
      expect(await dispatch('saveSettings', args), JSON.stringify(args)).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
    }
    expect(h.saveSettings).not.toHaveBeenCalled()
    expect(await dispatch('saveSettings', { retention: { sessionsDays: null }, cadences: { detailSeconds: 10 } })).toMatchObject({ ok: true })
  })

  it('checks the alert requests before a handler sees them', async () => {
    const h = fakeHandlers()
    const dispatch = createDispatch(h)
    for (const [name, args] of [
      ['acknowledgeAlert', { id: 0 }],
      ['acknowledgeAlert', { id: 1, note: 'x'.repeat(501) }],
      ['snoozeAlert', { id: 1, until: '2h' }],
      ['setSessionAlertOverride', { connectionId: 'c1', eventSessionId: 's', thresholds: { warning: 80, critical: 90 } }],
      ['pauseNotifications', { minutes: -1 }],
      ['listAlerts', { limit: 0 }]
    ] as const) {
      expect(await dispatch(name, args), `${name} ${JSON.stringify(args)}`).toMatchObject({ ok: false, error: { code: 'invalid-arguments' } })
    }
    expect(anyHandlerCalled(h)).toBe(false)
    expect(await dispatch('snoozeAlert', { id: 3, until: 'session-end' })).toMatchObject({ ok: true, value: ALERTS_PAGE })
    expect(h.snoozeAlert).toHaveBeenCalledWith({ id: 3, until: 'session-end' }, expect.anything())
    expect(await dispatch('saveSettings', { alertRules: DEFAULT_ALERT_RULES })).toMatchObject({ ok: true })
  })
})
