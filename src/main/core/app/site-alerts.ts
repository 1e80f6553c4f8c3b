// Which site alert a session's row and tile show (issue 24, item 2): a failing office must show
// on a session whose own score stays good. Of the session's site alerts still firing
// (acknowledged or not: an acknowledged alert still fires), the critical ones first, then the
// site doing worst; named as every text names a site (shared/site-label.ts), with its figure now:
// the site's mean reliability on the newest viewer list, which is what the rule judges.
import type { SiteAlert } from '../../../shared/alerts'
import { sessionKey } from '../../../shared/schema-parts'
import { siteLabel } from '../../../shared/site-label'
import { siteSamplesOf } from '../alerts/site-samples'
import type { OpenSessionAlert } from '../store/alerts'
import type { ViewerReads } from '../store/interface/viewers'
import type { Verdicts } from './verdicts'

type FiringSiteAlert = OpenSessionAlert & { site: string; state: 'firing' | 'acknowledged' }

const isFiringSiteAlert = (a: OpenSessionAlert): a is FiringSiteAlert =>
  a.rule === 'site-reliability' && a.site !== null && (a.state === 'firing' || a.state === 'acknowledged')

/** Worse first: critical before warning, then the lower figure (unknown last). */
function worse(a: SiteAlert, b: SiteAlert): number {
  if (a.severity !== b.severity) return a.severity === 'critical' ? -1 : 1
  return (a.reliability ?? Number.POSITIVE_INFINITY) - (b.reliability ?? Number.POSITIVE_INFINITY)
}

const oneDecimal = (n: number): number => Math.round(n * 10) / 10

/** Each session's worst firing site alert, by sessionKey. */
export async function siteAlertsBySession(
  viewers: Pick<ViewerReads, 'breakdown'>,
  open: readonly OpenSessionAlert[],
  verdicts: Verdicts
): Promise<Map<string, SiteAlert>> {
  const bySession = new Map<string, FiringSiteAlert[]>()
  for (const alert of open.filter(isFiringSiteAlert)) {
    const key = sessionKey(alert)
    bySession.set(key, [...(bySession.get(key) ?? []), alert])
  }
  const shown = new Map<string, SiteAlert>()
  for (const [key, alerts] of bySession) {
    const first = alerts[0]!
    // Read once per session, and only for sessions with a site alert firing (the sums are kept).
    const sites = await viewers.breakdown(first.connectionId, first.eventSessionId, 'site')
    const samples = siteSamplesOf(sites, (raw) => verdicts.score(first.connectionId, raw))
    const now = new Map(samples.map((s) => [s.site, s.reliability]))
    const candidates = alerts.map((a): SiteAlert => {
      const reliability = now.get(a.site) ?? a.value
      return {
        site: a.site,
        label: siteLabel(a.site, a.siteName),
        reliability: reliability === null ? null : oneDecimal(reliability),
        severity: a.severity,
        state: a.state
      }
    })
    shown.set(key, candidates.sort(worse)[0]!)
  }
  return shown
}
