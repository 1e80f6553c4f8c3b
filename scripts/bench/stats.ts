// Small helpers shared by the benchmark's parts: timing, medians and percentiles, formatting.
export const median = (values: readonly number[]): number => percentile(values, 50)

/** Nearest-rank percentile (p in 0–100) of the values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.ceil((p / 100) * sorted.length)
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))] as number
}

export const ms = (value: number): string => `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms`
export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`
export const int = (value: number): string => Math.round(value).toLocaleString('en-US')

export function log(line: string): void {
  process.stdout.write(`${line}\n`)
}

/** One line of the final table. */
export interface Figure {
  part: string
  name: string
  value: string
  goal: string
  met: boolean
  note?: string
}

export const verdict = (met: boolean): string => (met ? 'MET' : 'NOT MET')
