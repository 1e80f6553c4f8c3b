// What a session report holds (issue 14): app/session-report.ts builds it from the cache,
// report-html.ts writes it as HTML, `eventwatch report --format json` prints it. Here, below
// app/, so that the report's writers need nothing of the app that builds it.
import type { Alert } from '../../../shared/alerts'
import type { Health } from '../../../shared/reliability'
import type { BreakdownDimension, PastSession } from '../../../shared/screens'

export interface ReportGroup {
  key: string | null
  /** A site's name (Settings → Site names); null otherwise. */
  name: string | null
  viewers: number
  reliability: number | null
  health: Health
  rebufferingRatio: number | null
  cdnErrorRate: number | null
}

export interface ReportPoint {
  /** ms since epoch. */
  at: number
  viewers: number
  reliability: number | null
  health: Health
}

/** Who acknowledged an alert, when, and their note (a team's user, or this machine's). */
export interface ReportAcknowledgement {
  by: string | null
  at: string
  note: string | null
}

export interface SessionReport {
  generatedAt: string
  /** The link to the session's drill-down (shared/alert-link.ts): a team server's page, or the desk's
   *  eventwatch:// link; null for an id no URL can hold. */
  link: string | null
  session: Pick<
    PastSession,
    | 'connectionName' | 'eventSessionId' | 'eventName' | 'contentId' | 'startedAt' | 'hasEnded' | 'endedAt' | 'endedAtSource'
    | 'reliability' | 'health' | 'levels' | 'cdnTraffic' | 'ecdnTraffic' | 'lastPolledAt'
  >
  audience: {
    peakViewers: number | null
    peakAt: string | null
    /** 'polls': the most a poll counted while it was live; 'viewers': from the viewers' times. */
    peakSource: PastSession['peakSource']
    /** With a peak from the viewers' times: viewers without usable times, left out of it. */
    peakUntimed: number | null
    /** Everyone in the cached viewer list; null when none is cached. */
    viewers: number | null
    stillWatching: number | null
    /** Σ viewingTime, in the unit the service uses for it. */
    viewingTime: number | null
    viewerListFetchedAt: string | null
  }
  quality: {
    /** The lowest reliability on the timeline (0–100), when, and its health. */
    lowest: { reliability: number; at: string; health: Health } | null
    /** Snapshots Eventwatch took while it watched. */
    snapshots: number
  }
  /** Per dimension, its worst groups (lowest reliability first). */
  whereItHurt: Record<BreakdownDimension, ReportGroup[]>
  /** Oldest first; each with how it ended (the core's kind and words) and every acknowledgement. */
  alerts: (Pick<Alert, 'rule' | 'severity' | 'state' | 'summary' | 'firedAt' | 'resolvedAt' | 'endReason' | 'endKind'> & {
    acknowledgements: ReportAcknowledgement[]
    /** Where it leads: its session's drill-down, as every alert's webhook body and notification. */
    link: string | null
  })[]
  /** The audience and its reliability over time: from the snapshots, or reconstructed from the viewer list. */
  timeline: { source: 'snapshots' | 'viewers' | null; points: ReportPoint[] }
  /** The units the API does not state, as the app decided them (Settings, or detected). */
  units: { traffic: 'bytes' | 'kilobytes' | 'megabytes'; viewerTime: 'seconds' | 'milliseconds' }
}
