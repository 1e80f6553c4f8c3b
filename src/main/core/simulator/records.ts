// How the simulated service renders its state as the API's JSON.
import type { SimSession } from './world'

/** The scale the simulated service reports reliabilityScore on (real services differ; the API does not say). */
export type SimulatedScale = '0-1' | '0-100'

/** A score kept on 0–100 as this service reports it. */
export const reportedScore = (score: number, scale: SimulatedScale): number =>
  scale === '0-1' ? Number((score / 100).toFixed(4)) : Number(score.toFixed(2))

export function sessionRecord(s: SimSession, platformId: string, tenantId: string, scale: SimulatedScale = '0-100'): Record<string, unknown> {
  return {
    eventSessionId: s.eventSessionId,
    platformId,
    tenantId,
    contentId: s.contentId,
    eventName: s.eventName,
    startedAt: new Date(s.startedAt).toISOString(),
    updatedAt: new Date(s.updatedAt).toISOString(),
    hasEnded: s.hasEnded,
    viewersCount: s.crowd ?? (s.hasEnded ? (s.countAfterEnd ?? 0) : s.active.length),
    reliabilityScore: reportedScore(s.reliability, scale),
    cdnTraffic: s.cdnTraffic,
    ecdnTraffic: s.ecdnTraffic
  }
}
