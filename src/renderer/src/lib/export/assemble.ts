// The text of an export, assembled from its records exactly as `eventwatch export` prints it:
// CSV flattened and neutralised by the shared helpers (src/shared/csv.ts), JSON as
// JSON.stringify(array, null, 2). It runs in the export worker (assemble.worker.ts), or in the
// page, a slice at a time, where no worker can start (assembler.ts).
import { CsvColumns, csvLines, UTF8_BOM } from '../../../../shared/csv'

export type ExportFormat = 'csv' | 'json'

export interface AssembleOptions {
  /** Start a CSV with a UTF-8 byte-order mark, for Excel. JSON never gets one. */
  bom?: boolean
}

/** Takes the records as they arrive (learning the CSV columns on the way), then gives the text in parts. */
export class ExportBuilder {
  private readonly records: Record<string, unknown>[] = []
  private readonly columns = new CsvColumns()

  constructor(
    private readonly format: ExportFormat,
    private readonly options: AssembleOptions = {}
  ) {}

  add(records: readonly Record<string, unknown>[]): void {
    for (const record of records) {
      this.records.push(record)
      if (this.format === 'csv') this.columns.add(record)
    }
  }

  /** The text, a line (CSV) or a record (JSON) at a time: a Blob takes them without one huge string. */
  *parts(): Generator<string> {
    if (this.format === 'csv') {
      if (this.options.bom) yield UTF8_BOM
      yield* csvLines(this.records, this.columns.list())
    } else if (this.records.length === 0) {
      yield '[]\n'
    } else {
      for (const [i, record] of this.records.entries()) {
        yield `${i === 0 ? '[\n' : ',\n'}  ${JSON.stringify(record, null, 2).replace(/\n/g, '\n  ')}`
      }
      yield '\n]\n'
    }
  }
}

/** The whole export's text in parts, at once. */
export function exportParts(records: readonly Record<string, unknown>[], format: ExportFormat, options: AssembleOptions = {}): string[] {
  const builder = new ExportBuilder(format, options)
  builder.add(records)
  return [...builder.parts()]
}

export const MIME: Record<ExportFormat, string> = { csv: 'text/csv;charset=utf-8', json: 'application/json' }

/** "<event-name>-viewers-2026-11-21.csv": readable, safe on every file system. */
export function exportFileName(eventName: string | null, kind: string, now: number, extension: string): string {
  const slug = (eventName ?? 'session')
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .toLowerCase()
    .slice(0, 60)
  return `${slug || 'session'}-${kind}-${new Date(now).toISOString().slice(0, 10)}.${extension}`
}
