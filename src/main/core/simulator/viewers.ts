// A simulated viewer: fixed traits drawn once at join; counters derived from time at read,
// so a session of 5,000 viewers costs nothing per tick.
import { reportedScore, type SimulatedScale } from './records'
import { APPS, CONNECTION_KINDS, DEVICES, OS_BY_DEVICE, SITES } from './catalog'
import type { Random } from './random'

export interface SimViewer {
  seq: number
  viewerId: string
  deviceType: string
  os: string
  app: string
  siteCode: number
  connectionKind: string
  publicIp: string
  privateIp: string
  proxy: string[]
  /** 0.9–1: how well this viewer's path performs compared with the session. */
  quality: number
  /** Bytes per second while watching. */
  bitrate: number
  /** Share of this viewer's bytes served by the ECDN (peer/enterprise cache). */
  ecdnShare: number
  startedAt: number
  endedAt: number | null
  /** Reported without a startedAt (World.spoilViewerTimes). */
  startUnknown?: boolean
}

export function createViewer(random: Random, seq: number, at: number, siteBias: number): SimViewer {
  const deviceType = random.weighted(DEVICES)
  const siteCode = random.chance(0.5) ? (SITES[siteBias % SITES.length] ?? 101) : random.pick(SITES)
  const connectionKind = random.weighted(CONNECTION_KINDS)
  const onSite = connectionKind === 'wired' || connectionKind === 'wifi'
  return {
    seq,
    viewerId: random.uuid(),
    deviceType,
    os: random.pick(OS_BY_DEVICE[deviceType] ?? ['Unknown']),
    app: random.weighted(APPS),
    siteCode,
    connectionKind,
    // Documentation address ranges (RFC 5737): plausible, never anyone's real address.
    publicIp: `203.0.113.${random.int(1, 254)}`,
    privateIp: `10.${siteCode % 256}.${random.int(0, 255)}.${random.int(1, 254)}`,
    proxy: connectionKind === 'vpn' ? [`proxy-${siteCode}.corp.example`] : [],
    quality: connectionKind === 'cellular' ? random.between(0.88, 0.97) : random.between(0.94, 1),
    bitrate: random.between(180_000, 420_000),
    ecdnShare: onSite ? random.between(0.55, 0.92) : 0,
    startedAt: at,
    endedAt: null
  }
}

/** The viewer as the API reports it at time `now`, given the session's reliability (0–100). */
export function viewerRecord(viewer: SimViewer, now: number, sessionReliability: number, scale: SimulatedScale = '0-100'): Record<string, unknown> {
  const until = viewer.endedAt ?? now
  const watchedSeconds = Math.max(0, (until - viewer.startedAt) / 1000)
  const rebufferingTime = watchedSeconds * (1 - viewer.quality) * 0.25
  const viewingTime = Math.max(0, watchedSeconds - rebufferingTime)
  const bytes = viewingTime * viewer.bitrate
  const cdnResponses = Math.floor(viewingTime / 2) // one 2-second segment per response
  const record: Record<string, unknown> = {
    viewerId: viewer.viewerId,
    deviceType: viewer.deviceType,
    os: viewer.os,
    app: viewer.app,
    networkConnections: [
      {
        connectionStarted: new Date(viewer.startedAt).toISOString(),
        publicIp: viewer.publicIp,
        privateIp: viewer.privateIp,
        type: { kind: viewer.connectionKind },
        proxy: viewer.proxy,
        siteCode: viewer.siteCode
      }
    ],
    reliabilityScore: reportedScore(Math.min(100, sessionReliability * viewer.quality + 2), scale),
    rebufferingEvents: Math.floor(rebufferingTime / 3),
    rebufferingTime: round(rebufferingTime, 1),
    viewingTime: round(viewingTime, 1),
    startedAt: new Date(viewer.startedAt).toISOString(),
    cdnTraffic: Math.round(bytes * (1 - viewer.ecdnShare)),
    ecdnTraffic: Math.round(bytes * viewer.ecdnShare),
    cdnResponses,
    cdnErrors: Math.floor(cdnResponses * (1 - viewer.quality) * 0.08)
  }
  if (viewer.endedAt !== null) record.endedAt = new Date(viewer.endedAt).toISOString()
  if (viewer.startUnknown) delete record.startedAt
  return record
}

const round = (value: number, digits: number): number => Number(value.toFixed(digits))
