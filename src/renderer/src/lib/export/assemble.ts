// The text of an export, assembled from its records exactly as `eventwatch export` prints it:
// CSV flattened by the shared helpers (src/shared/csv.ts), JSON as JSON.stringify(array, null, 2).
import { csvColumns, csvLines } from '../../../../shared/csv'

export type ExportFormat = 'csv' | 'json'

/** The export's text in parts (a Blob takes them without one huge string). */
export function exportParts(records: readonly Record<string, unknown>[], format: ExportFormat): string[] {
  if (format === 'csv') return [...csvLines(records, csvColumns(records))]
  if (records.length === 0) return ['[]\n']
  return records.map((record, i) => `${i === 0 ? '[\n' : ',\n'}  ${JSON.stringify(record, null, 2).replace(/\n/g, '\n  ')}`).concat('\n]\n')
}

export const MIME: Record<ExportFormat, string> = { csv: 'text/csv;charset=utf-8', json: 'application/json' }

/** "<event-name>-viewers-2026-11-21.csv": readable, safe on every file system. */
export function exportFileName(eventName: string | null, kind: string, now: number, format: ExportFormat): string {
  const slug = (eventName ?? 'session')
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .toLowerCase()
    .slice(0, 60)
  return `${slug || 'session'}-${kind}-${new Date(now).toISOString().slice(0, 10)}.${format}`
}
