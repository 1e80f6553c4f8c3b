// The CSV helpers live in src/shared/csv.ts so the UI's exports flatten records exactly as the CLI does.
export { CsvColumns, csvCell, csvColumns, csvLines, flattenRecord, neutralise, toCsv, UTF8_BOM } from '../../shared/csv'
