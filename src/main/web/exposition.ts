// The core's metric families (core/metrics, app/observability.ts) in the Prometheus text
// exposition format, version 0.0.4: `# HELP`, `# TYPE`, then one line per sample. Label values
// are the world's (a connection's name is whatever its administrator typed): backslash, double
// quote and line feed are escaped as the format says, so no name can end a line or a value early.
import type { MetricFamily } from '../core/metrics/metrics'

export const EXPOSITION_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

const escapeLabelValue = (value: string): string => value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
/** HELP text escapes backslash and line feed only. */
const escapeHelp = (text: string): string => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n')

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN'
  if (value === Number.POSITIVE_INFINITY) return '+Inf'
  if (value === Number.NEGATIVE_INFINITY) return '-Inf'
  return String(value)
}

export function exposition(families: readonly MetricFamily[]): string {
  const lines: string[] = []
  for (const family of families) {
    lines.push(`# HELP ${family.name} ${escapeHelp(family.help)}`, `# TYPE ${family.name} ${family.type}`)
    for (const sample of family.samples) {
      const labels = Object.entries(sample.labels).map(([name, value]) => `${name}="${escapeLabelValue(value)}"`)
      lines.push(`${family.name}${sample.suffix ?? ''}${labels.length ? `{${labels.join(',')}}` : ''} ${formatValue(sample.value)}`)
    }
  }
  return `${lines.join('\n')}\n`
}
