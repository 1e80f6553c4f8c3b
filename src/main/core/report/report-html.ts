// The post-event report as one self-contained HTML file: styles inline, charts as inline SVG, no
// script, and a Content-Security-Policy that forbids loading anything, so it opens the same from
// a mail attachment, a share or a USB stick, and prints to PDF cleanly. Every string from the
// service is escaped: an event name may be markup. Times are UTC, said so once. A session still
// live says so, and as of when: its report is the story so far.
import { endHeading } from '../../../shared/alert-end'
import { formatBytes, formatCount, formatReliability } from '../../../shared/format'
import type { Health } from '../../../shared/reliability'
import { sessionName } from '../../../shared/session-name'
import type { ReportGroup, SessionReport } from './session-report-shape'
import { escapeHtml } from './escape-html'
import { svgLineChart } from './svg-chart'

const TRAFFIC_BYTES = { bytes: 1, kilobytes: 1e3, megabytes: 1e6 } as const
const DIMENSION_TITLES = { site: 'Site', deviceType: 'Device type', os: 'OS', app: 'App', connectionType: 'Connection type' } as const
const END_SOURCES = { viewers: 'when the last viewer left', service: "the service's last update", observed: 'when Eventwatch first saw it ended' } as const
const PEAK_SOURCES = {
  viewers: "from the viewers' start and end times",
  polls: 'the most the service counted at a poll while the session was live'
} as const
const HEALTH_COLOURS: Record<Health, string> = { good: '#1a7f4b', warning: '#a86400', critical: '#c0262d', unknown: '#666' }


const utc = (at: string | number | null): string => {
  if (at === null) return '—'
  const date = new Date(at)
  return Number.isNaN(date.getTime()) ? '—' : `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`
}
const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 16)
/** Seconds too on an axis of a few minutes (a report in a session's first minutes), where minutes repeat. */
const axisClock = (span: number) => (span < 10 * 60_000 ? (ms: number): string => new Date(ms).toISOString().slice(11, 19) : clock)
const percent = (ratio: number | null): string => (ratio === null ? '—' : `${(ratio * 100).toFixed(2)} %`)
const health = (value: number | null, verdict: Health): string =>
  `<span style="color:${HEALTH_COLOURS[verdict]}">${formatReliability(value)} (${verdict})</span>`

function hours(total: number | null, unit: SessionReport['units']['viewerTime']): string {
  if (total === null) return '—'
  const h = (unit === 'milliseconds' ? total / 1000 : total) / 3600
  return `${formatCount(h)} h`
}

function figure(label: string, value: string, note = ''): string {
  return `<div class="figure"><div class="label">${escapeHtml(label)}</div><div class="value">${value}</div>${note ? `<div class="note">${note}</div>` : ''}</div>`
}

function groupTable(title: string, groups: ReportGroup[]): string {
  if (groups.length === 0) return ''
  const rows = groups
    .map(
      (g) =>
        `<tr><td>${escapeHtml(g.key === null ? 'unknown' : g.name ? `${g.key} · ${g.name}` : g.key)}</td><td class="num">${formatCount(g.viewers)}</td><td class="num">${health(g.reliability, g.health)}</td>` +
        `<td class="num">${percent(g.rebufferingRatio)}</td><td class="num">${percent(g.cdnErrorRate)}</td></tr>`
    )
    .join('')
  return `<table><caption>${escapeHtml(title)}</caption><thead><tr><th>Group</th><th class="num">Viewers</th><th class="num">Reliability</th><th class="num">Rebuffering</th><th class="num">CDN errors</th></tr></thead><tbody>${rows}</tbody></table>`
}

function charts(report: SessionReport): string {
  const { points, source } = report.timeline
  if (points.length < 2) return '<p class="note">Not enough data to draw the session over time: too few snapshots and no viewer list with times.</p>'
  const times = points.map((p) => p.at)
  const timeLabel = axisClock(times[times.length - 1]! - times[0]!)
  const maxViewers = Math.max(10, ...points.map((p) => p.viewers))
  const rated = points.map((p) => p.reliability).filter((v): v is number => v !== null)
  const levels = report.session.levels
  const yMin = Math.max(0, Math.min(levels.critical, ...rated) - 5)
  const from =
    source === 'viewers'
      ? 'Reconstructed from the viewer list: each viewer counted from their start to their end.'
      : `From ${formatCount(report.quality.snapshots)} snapshots Eventwatch took while it watched (nothing before it started watching).`
  return (
    `<h3>Viewers at once</h3>${svgLineChart({ title: 'Viewers at once', times, series: [{ values: points.map((p) => p.viewers), colour: '#2563eb' }], yMin: 0, yMax: maxViewers * 1.05, formatY: formatCount, formatTime: timeLabel })}` +
    `<h3>Reliability (0–100)</h3>${svgLineChart({
      title: 'Reliability',
      times,
      // Coloured by level, piece by piece: never a green line under the red critical line.
      series: [{ values: points.map((p) => p.reliability), colour: HEALTH_COLOURS.good, byLevel: { ...levels, colours: HEALTH_COLOURS } }],
      yMin,
      yMax: 100,
      formatY: (v) => v.toFixed(0),
      formatTime: timeLabel,
      lines: [
        { value: levels.warning, label: `warning < ${levels.warning}`, colour: '#a86400' },
        { value: levels.critical, label: `critical < ${levels.critical}`, colour: '#c0262d' }
      ]
    })}` +
    `<p class="note">${escapeHtml(from)} The reliability line is green at or above the warning level, amber below it, red below the critical level. Times in UTC.</p>`
  )
}

/** How it ended, as the core decided ("Resolved — recovered: …", "Ended — no longer falling: …"), or its state while open. */
function outcome(a: SessionReport['alerts'][number]): string {
  if (a.state !== 'resolved') return `Still ${a.state}`
  const { word } = endHeading(a.endKind)
  return a.endReason ? `${word} — ${a.endReason}` : word
}

/** Who acknowledged it, when, and their note: "alice at 10:05 UTC: “on it”". */
function acknowledgements(a: SessionReport['alerts'][number]): string {
  if (a.acknowledgements.length === 0) return '<span class="note">not acknowledged</span>'
  return a.acknowledgements
    .map((ack) => `<div>${escapeHtml(ack.by ?? 'someone')} at ${clock(Date.parse(ack.at))} UTC${ack.note ? `: “${escapeHtml(ack.note)}”` : ''}</div>`)
    .join('')
}

/** `html` as a link to the session (a place the reader may go: it loads nothing), or as it is without one. */
const linked = (link: string | null, html: string): string => (link ? `<a href="${escapeHtml(link)}">${html}</a>` : html)

function alertRows(report: SessionReport): string {
  if (report.alerts.length === 0) return '<p>No alert fired for this session.</p>'
  const rows = report.alerts
    .map(
      (a) =>
        `<tr><td>${utc(a.firedAt)}</td><td>${utc(a.resolvedAt)}</td><td style="color:${a.severity === 'critical' ? HEALTH_COLOURS.critical : HEALTH_COLOURS.warning}">${escapeHtml(a.severity)}</td>` +
        `<td>${linked(a.link, escapeHtml(a.summary))}</td><td>${escapeHtml(outcome(a))}</td><td>${acknowledgements(a)}</td></tr>`
    )
    .join('')
  return (
    '<table class="alerts"><colgroup><col class="time"><col class="time"><col class="severity"><col><col><col class="ack"></colgroup>' +
    `<thead><tr><th>Fired</th><th>Ended</th><th>Severity</th><th>What</th><th>Outcome</th><th>Acknowledged</th></tr></thead><tbody>${rows}</tbody></table>`
  )
}

const STYLE = `
  body { font: 14px/1.45 system-ui, sans-serif; color: #1d2330; margin: 2rem auto; max-width: 780px; padding: 0 1rem; }
  h1 { font-size: 1.5rem; margin: 0 0 .2rem; } h2 { font-size: 1.1rem; margin: 1.6rem 0 .5rem; border-bottom: 1px solid #d0d4dc; }
  h3 { font-size: .95rem; margin: 1rem 0 .2rem; } .sub, .note { color: #5b6475; font-size: .85rem; }
  .figures { display: grid; grid-template-columns: repeat(3, 1fr); gap: .6rem; }
  .figure { border: 1px solid #d0d4dc; border-radius: 6px; padding: .5rem .7rem; break-inside: avoid; }
  .figure .label { color: #5b6475; font-size: .75rem; text-transform: uppercase; letter-spacing: .04em; }
  .figure .value { font-size: 1.25rem; font-weight: 600; }
  table { border-collapse: collapse; table-layout: fixed; width: 100%; margin: .4rem 0 .8rem; font-size: .85rem; break-inside: avoid; }
  caption { text-align: left; font-weight: 600; padding: .2rem 0; }
  th, td { text-align: left; padding: .25rem .4rem; border-bottom: 1px solid #e4e7ec; } .num { text-align: right; }
  svg { width: 100%; height: auto; break-inside: avoid; }
  table.alerts col.time { width: 7.5rem; } table.alerts col.severity { width: 4.5rem; } table.alerts col.ack { width: 9rem; }
  td { vertical-align: top; overflow-wrap: anywhere; }
  .live { color: #a86400; font-weight: 600; }
  @media print { body { margin: 0; } h2 { break-after: avoid; } }`

/** Where the peak comes from, in words: a poll while live, or the viewers' times (with when, and who was left out). */
function peakWords(a: SessionReport['audience']): string {
  if (a.peakSource === null) return 'not known: never polled while live, and no viewer list with times'
  if (a.peakSource === 'polls') return PEAK_SOURCES.polls
  const untimed = a.peakUntimed ?? 0
  const left = untimed > 0 ? `; ${formatCount(untimed)} viewer${untimed === 1 ? '' : 's'} without usable times not counted` : ''
  return `${PEAK_SOURCES.viewers}${a.peakAt ? `, at ${utc(a.peakAt)}` : ''}${left}`
}

/** The whole report as one HTML document. */
export function reportHtml(report: SessionReport): string {
  const s = report.session
  const a = report.audience
  const name = sessionName(s)
  const trafficOf = (v: number): string => formatBytes(v * TRAFFIC_BYTES[report.units.traffic])
  const endedNote = s.hasEnded && s.endedAtSource ? END_SOURCES[s.endedAtSource] : ''
  const when = s.hasEnded
    ? `Started ${utc(s.startedAt)} · ended ${utc(s.endedAt)}${endedNote ? ` (${escapeHtml(endedNote)})` : ''}`
    : `Started ${utc(s.startedAt)} · <span class="live">● still live as of ${utc(s.lastPolledAt)}</span> (its last poll): every figure here is so far`
  const peakNote = peakWords(a)
  const hurt = (Object.keys(DIMENSION_TITLES) as (keyof typeof DIMENSION_TITLES)[])
    .map((d) => groupTable(DIMENSION_TITLES[d], report.whereItHurt[d]))
    .join('')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(name)} — Eventwatch report</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(name)}</h1>
<div class="sub">${escapeHtml(s.connectionName)} · content ${escapeHtml(s.contentId)} · session ${escapeHtml(s.eventSessionId)}</div>
<div class="sub" data-testid="when">${when}</div>
${report.link ? `<div class="sub">${linked(report.link, 'Open the session in Eventwatch')}</div>` : ''}
</header>
<main>
<h2>Audience</h2>
<div class="figures">
${figure('Peak viewers', a.peakViewers === null ? '—' : formatCount(a.peakViewers), escapeHtml(peakNote))}
${figure('Viewers', a.viewers === null ? '—' : formatCount(a.viewers), a.viewers === null ? 'no viewer list cached' : `in the viewer list of ${utc(a.viewerListFetchedAt)}`)}
${figure('Time watched', hours(a.viewingTime, report.units.viewerTime), 'all viewers together')}
</div>
<h2>Quality</h2>
<div class="figures">
${figure('Reliability', health(s.reliability, s.health), `the service's score for the session; warning &lt; ${s.levels.warning}, critical &lt; ${s.levels.critical}`)}
${figure('Lowest over time', report.quality.lowest ? health(report.quality.lowest.reliability, report.quality.lowest.health) : '—', report.quality.lowest ? `at ${utc(report.quality.lowest.at)}` : '')}
${figure('Traffic CDN / ECDN', `${trafficOf(s.cdnTraffic)} / ${trafficOf(s.ecdnTraffic)}`)}
</div>
${charts(report)}
<h2>Where it hurt</h2>
${hurt || '<p>No viewer list cached: nothing to break down.</p>'}
<h2>Alerts</h2>
${alertRows(report)}
</main>
<footer><p class="note">Eventwatch report generated ${utc(report.generatedAt)} from its cache. Reliability on 0–100, judged against the levels above.</p></footer>
</body>
</html>
`
}
