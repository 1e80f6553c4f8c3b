// A viewer list's breakdowns summed from its rows as they are written (viewers.ts), so the
// drill-down never waits for a scan of tens of thousands of viewers: the sums are in hand, in
// the same transaction as the list. The same math as the scan in queries/breakdown.ts, which
// remains for lists stored before the writer kept them.
import { addToBreakdown, emptyBreakdownSums, type BreakdownSums } from './queries/breakdown'
import { connectionTypeLabel } from './queries/viewer-sql'
import { CONNECTION_COLUMNS, CONNECTION_ROW_WIDTH, VIEWER_COLUMNS, VIEWER_ROW_WIDTH, type ViewerListRows } from './viewer-rows'

/** Where each column sits in a row, by name. */
const offsets = (columns: string): Record<string, number> =>
  Object.fromEntries(columns.split(',').map((name, i) => [name.trim(), i]))
const V = offsets(VIEWER_COLUMNS)
const C = offsets(CONNECTION_COLUMNS)

type Value = string | number | null
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null)

/** The sums of `rows`, added to `out` (a list written page by page sums into one). */
export function breakdownOfRows(rows: ViewerListRows, out: BreakdownSums = emptyBreakdownSums()): BreakdownSums {
  const { viewers: v, connections: c } = rows
  // Site and connection type come from each viewer's first network connection (position 0).
  const firstConnection = new Int32Array(rows.count).fill(-1)
  for (let at = 0; at < c.length; at += CONNECTION_ROW_WIDTH) {
    if (c[at + C.position!] === 0) firstConnection[c[at + C.viewer!] as number] = at
  }
  const labels = new Map<Value, string | null>()
  const labelOf = (typeJson: Value): string | null => {
    if (!labels.has(typeJson)) labels.set(typeJson, connectionTypeLabel(typeJson as string | null))
    return labels.get(typeJson) ?? null
  }
  for (let index = 0, at = 0; at < v.length; index++, at += VIEWER_ROW_WIDTH) {
    const connection = firstConnection[index] as number
    const site = connection < 0 ? null : (c[connection + C.site_code!] as Value)
    const typeJson = connection < 0 ? null : (c[connection + C.type_json!] as Value)
    const reliability = num(v[at + V.reliability_score!])
    const rebuffering = num(v[at + V.rebuffering_time!])
    const viewing = num(v[at + V.viewing_time!])
    const responses = num(v[at + V.cdn_responses!])
    const errors = num(v[at + V.cdn_errors!])
    addToBreakdown(
      out,
      {
        site,
        deviceType: v[at + V.device_type!] as Value,
        os: v[at + V.os!] as Value,
        app: v[at + V.app!] as Value,
        connectionType: labelOf(typeJson)
      },
      {
        viewers: 1,
        reliabilitySum: reliability,
        reliabilityCount: reliability === null ? 0 : 1,
        rebufferingTime: viewing === null ? null : rebuffering,
        watchTime: rebuffering === null || viewing === null ? null : rebuffering + viewing,
        cdnErrors: responses === null ? null : errors,
        cdnResponses: errors === null ? null : responses
      }
    )
  }
  return out
}
