// The post-event report's HTML (report-html.ts): self-contained (nothing it could load from
// elsewhere, and a policy that forbids it anyway) and inert with hostile strings from the service.
import { describe, expect, it } from 'vitest'
import type { SessionReport } from '../../src/main/core/report/session-report-shape'
import { reportHtml } from '../../src/main/core/report/report-html'
import { plainText } from '../../src/shared/plain-text'
import { parseDeskLink, sessionLink } from '../../src/shared/session-link'
import { BIDI_CONTROLS, INVISIBLES, unsafeCharacters } from '../support/hostile-names'

const HOSTILE = '<img src=x onerror=alert(1)>"\'&</title><script>alert(2)</script>'
const T0 = Date.parse('2026-11-20T10:00:00Z')
const group = (key: string | null, name: string | null = null) => ({ key, name, viewers: 3, reliability: 88.5, health: 'critical' as const, rebufferingRatio: 0.02, cdnErrorRate: 0.01 })

/** Ids from the service are hostile too: the link escapes them. */
const LINK = sessionLink({ kind: 'desk' }, { connectionId: 'c-1', eventSessionId: 's-1"><script>' })

function report(overrides: Partial<SessionReport> = {}): SessionReport {
  return {
    generatedAt: new Date(T0 + 86_400_000).toISOString(),
    link: LINK,
    session: {
      connectionName: HOSTILE, eventSessionId: 's-1', eventName: HOSTILE, contentId: '=HYPERLINK("http://evil.example")',
      startedAt: new Date(T0).toISOString(), hasEnded: true, endedAt: new Date(T0 + 3_600_000).toISOString(), endedAtSource: 'viewers',
      reliability: 93.2, health: 'warning', levels: { warning: 95, critical: 90, source: 'settings' }, cdnTraffic: 2e9, ecdnTraffic: 5e9,
      lastPolledAt: new Date(T0 + 3_600_000).toISOString()
    },
    audience: { peakViewers: 1234, peakAt: new Date(T0 + 1_800_000).toISOString(), peakSource: 'viewers', peakUntimed: 0, viewers: 1500, stillWatching: 0, viewingTime: 7_200_000, viewerListFetchedAt: new Date(T0 + 4_000_000).toISOString() },
    quality: { lowest: { reliability: 85.1, at: new Date(T0 + 900_000).toISOString(), health: 'critical' }, snapshots: 0 },
    whereItHurt: { site: [group('101', 'London <HQ>'), group(null)], deviceType: [group(HOSTILE)], os: [], app: [], connectionType: [] },
    alerts: [
      {
        rule: 'reliability-below', severity: 'critical', state: 'resolved', summary: HOSTILE, firedAt: new Date(T0 + 600_000).toISOString(),
        resolvedAt: new Date(T0 + 1_200_000).toISOString(), endReason: 'recovered: reliability 96.1, above the warning level 95', endKind: 'recovered', acknowledgements: [], link: LINK
      }
    ],
    timeline: {
      source: 'viewers',
      points: Array.from({ length: 30 }, (_, i) => ({ at: T0 + i * 120_000, viewers: 100 + i * 30, reliability: i === 5 ? null : 90 + (i % 7), health: 'good' as const }))
    },
    units: { traffic: 'bytes', viewerTime: 'seconds' },
    ...overrides
  }
}

describe('reportHtml', () => {
  const html = reportHtml(report())

  it('loads nothing from anywhere: no script, no source, no stylesheet import, and a policy that forbids it; its only addresses are the links to the session', () => {
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">/)
    // Every real tag (escaped text is no tag): none that fetches, none with an address but the
    // session's link (a place the reader may go, which loads nothing).
    const tags = html.match(/<[a-z!][^>]*>/gi) ?? []
    expect(tags.length).toBeGreaterThan(50)
    const links = tags.filter((tag) => tag.startsWith('<a '))
    expect(links).toHaveLength(2) // the heading's, and the one alert's line
    for (const tag of tags.filter((t) => !t.startsWith('<a '))) {
      expect(tag).not.toMatch(/^<(script|link|iframe|object|embed|img|image|base|use|form)\b/i)
      expect(tag).not.toMatch(/\s(src|href|xlink:href|srcset|action|formaction|background)\s*=/i)
    }
    for (const tag of links) {
      const href = /^<a href="([^"]*)"[^>]*>$/.exec(tag)?.[1]
      expect(href).toBe(LINK)
      expect(parseDeskLink(href!)).toEqual({ connectionId: 'c-1', eventSessionId: 's-1"><script>' })
    }
    expect(html).not.toMatch(/url\(|@import/i)
  })

  it('escapes every string from the service', () => {
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;&lt;/title&gt;&lt;script&gt;')
    expect(html.match(/<title>/g)).toHaveLength(1)
  })

  it('shows no bidi, invisible or control character from the service: a name cannot reorder its heading', () => {
    const name = `Town hall ${BIDI_CONTROLS.join('')}${INVISIBLES.join('')}\u0007\u0085\u2028 end`
    const base = report()
    const hostile = reportHtml(report({ session: { ...base.session, eventName: name, connectionName: name, eventSessionId: `s-\u202e1` } }))
    expect(unsafeCharacters(hostile, ['\n'])).toEqual([])
    expect(hostile).toContain(`<h1>${plainText(name)}</h1>`)
  })

  it('gives the audience, its source, the quality, where it hurt and the alerts in words', () => {
    expect(html).toContain('1,234')
    expect(html).toContain('from the viewers&#39; start and end times, at 2026-11-20 10:30 UTC')
    expect(html).toContain('2026-11-20 11:00 UTC (when the last viewer left)')
    expect(html).toContain('2,000 h')
    expect(html).toContain('2.0 GB / 5.0 GB')
    expect(html).toContain('85.1')
    expect(html).toMatch(/<caption>Site<\/caption>[\s\S]*?<td>101 · London &lt;HQ&gt;<\/td>[\s\S]*?<td>unknown<\/td>/)
    expect(html).toContain('Resolved — recovered: reliability 96.1, above the warning level 95')
    // Two charts, the reliability one with the session's levels, its gap kept.
    expect(html.match(/<svg /g)).toHaveLength(2)
    expect(html).toContain('warning &lt; 95')
    // The reliability line's pieces at or above the warning level are green, its gap kept (before and after it).
    expect(html.match(/<polyline[^>]*data-health="good"/g)?.length).toBeGreaterThanOrEqual(2)
    expect(html).toContain('Reconstructed from the viewer list')
  })

  it('says a live session is still live, and as of when — never "ended still live"', () => {
    const base = report()
    const live = reportHtml(report({ session: { ...base.session, hasEnded: false, endedAt: null, endedAtSource: null } }))
    expect(live).toMatch(/● still live as of 2026-11-20 11:00 UTC<\/span> \(its last poll\): every figure here is so far/)
    expect(live).not.toMatch(/ended still live|ended —/)
  })

  it('lists who acknowledged each alert, when, and their note, escaped; how it ended in the core\'s words', () => {
    const base = report()
    const html = reportHtml(
      report({
        alerts: [
          {
            ...base.alerts[0]!,
            rule: 'reliability-falling',
            severity: 'warning',
            endKind: 'no-longer-applies',
            endReason: 'no longer falling: the drop left its 5-minute window; reliability is still 41.0, below the critical level 90',
            acknowledgements: [
              { by: 'alice', at: new Date(T0 + 660_000).toISOString(), note: 'ECDN peer down <b>Leeds</b>' },
              { by: null, at: new Date(T0 + 720_000).toISOString(), note: null }
            ]
          },
          { ...base.alerts[0]!, state: 'firing', resolvedAt: null, endReason: null, endKind: null, acknowledgements: [] }
        ]
      })
    )
    expect(html).toContain('<th>Acknowledged</th>')
    expect(html).toContain('<div>alice at 10:11 UTC: “ECDN peer down &lt;b&gt;Leeds&lt;/b&gt;”</div><div>someone at 10:12 UTC</div>')
    expect(html).toContain('Ended — no longer falling: the drop left its 5-minute window; reliability is still 41.0, below the critical level 90')
    expect(html).not.toMatch(/Resolved — no longer/)
    expect(html).toContain('<td>Still firing</td><td><span class="note">not acknowledged</span></td>')
  })

  it('says so when there is nothing to chart, no list and no alert', () => {
    const bare = reportHtml(
      report({
        timeline: { source: null, points: [] },
        audience: { peakViewers: null, peakAt: null, peakSource: null, peakUntimed: null, viewers: null, stillWatching: null, viewingTime: null, viewerListFetchedAt: null },
        whereItHurt: { site: [], deviceType: [], os: [], app: [], connectionType: [] },
        alerts: []
      })
    )
    expect(bare).toContain('Not enough data to draw the session over time')
    expect(bare).toContain('No viewer list cached: nothing to break down.')
    expect(bare).toContain('No alert fired for this session.')
    expect(bare).not.toMatch(/<svg /)
  })
})
