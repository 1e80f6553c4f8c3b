// How the simulated service renders its state as the API's JSON.
import type { SimSession } from './world'

export function sessionRecord(s: SimSession, platformId: string, tenantId: string): Record<string, unknown> {
  return {
    eventSessionId: s.eventSessionId,
    platformId,
    tenantId,
    contentId: s.contentId,
    eventName: s.eventName,
    startedAt: new Date(s.startedAt).toISOString(),
    updatedAt: new Date(s.updatedAt).toISOString(),
    hasEnded: s.hasEnded,
    viewersCount: s.active.length,
    reliabilityScore: Number(s.reliability.toFixed(2)),
    cdnTraffic: s.cdnTraffic,
    ecdnTraffic: s.ecdnTraffic
  }
}
