// RFC 4180 CSV from records; columns are the union of keys, in first-seen order.
export function toCsv(records: Record<string, unknown>[]): string {
  const columns: string[] = []
  for (const r of records) for (const key of Object.keys(r)) if (!columns.includes(key)) columns.push(key)
  const cell = (value: unknown): string => {
    if (value === null || value === undefined) return ''
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value)
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
  }
  const lines = [columns.map(cell).join(','), ...records.map((r) => columns.map((c) => cell(r[c])).join(','))]
  return `${lines.join('\r\n')}\r\n`
}
