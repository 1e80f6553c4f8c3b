// Records as the service sends them and settings as the app validates them, for the contract.
import type { EventSessionRecord, ViewerRecord } from '../../../src/main/core/api/schemas'
import type { Store } from '../../../src/main/core/store/interface/store'
import type { ConnectionSettings } from '../../../src/shared/connections'

export const T0 = Date.UTC(2026, 10, 26, 9, 0, 0)
export const MINUTE = 60_000

export const connectionSettings = (name: string, over: Partial<ConnectionSettings> = {}): ConnectionSettings => ({
  name,
  baseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com',
  platformId: 'platform',
  tenantId: 'tenant',
  clientId: 'client',
  enabled: true,
  lookbackDays: 7,
  reliabilityScale: 'auto',
  ...over
})

export const sessionRecord = (id: string, at: number, over: Partial<EventSessionRecord> = {}): EventSessionRecord => ({
  eventSessionId: id,
  platformId: 'platform',
  tenantId: 'tenant',
  contentId: `content-${id}`,
  eventName: `Event ${id}`,
  startedAt: new Date(at).toISOString(),
  updatedAt: new Date(at).toISOString(),
  hasEnded: false,
  viewersCount: 100,
  reliabilityScore: 90,
  cdnTraffic: 10,
  ecdnTraffic: 5,
  ...over
})

/** Viewer `i`: scores spread so that no two of the first 10,007 tie; one site per ten viewers. */
export const viewerRecord = (i: number, at: number): ViewerRecord => ({
  viewerId: `viewer-${String(i).padStart(5, '0')}`,
  deviceType: i % 2 === 0 ? 'desktop' : 'mobile',
  os: 'linux',
  app: 'browser',
  reliabilityScore: (i * 7919) % 10_007,
  rebufferingEvents: i % 3,
  startedAt: new Date(at + i * 1000).toISOString(),
  networkConnections: [{ siteCode: i % 10, publicIp: `203.0.113.${i % 250}` }]
})

/** A connection `name` with the id `id`, written through the store (sessions need one). */
export async function withConnection(store: Store, id: string, name = id): Promise<void> {
  await store.withTransaction((tx) => tx.connections.insert(connectionSettings(name), id, T0))
}
