// Types for electronegativity-report.js (plain Node ESM, imported by the unit tests).

export type Severity = 'HIGH' | 'MEDIUM' | 'LOW' | 'INFORMATIONAL'

export interface Finding {
  check: string
  severity: Severity
  confidence: string
  file: string
  line: number
  column: number
  description: string
}

export interface Suppression {
  file: string
  line: number
  checks: string[]
  reason: string
  text: string
}

export interface BadSuppression {
  file: string
  line: number
  text: string
  problem: string
}

export interface Row {
  finding: Finding
  suppression: Suppression | undefined
}

export interface Verdict {
  rows: Row[]
  failures: string[]
  passed: boolean
}

export const GATING_SEVERITIES: ReadonlySet<string>
export const SEVERITIES: readonly Severity[]
export const MIN_REASON_LENGTH: number

export function findingsFromIssues(issues: unknown, fileName?: (file: string) => string): Finding[]
export function findSuppressions(file: string, text: string): { suppressions: Suppression[]; bad: BadSuppression[] }
export function evaluate(input: {
  findings: Finding[]
  suppressions?: Suppression[]
  badSuppressions?: BadSuppression[]
  parseErrors?: { file: string; message: string }[]
}): Verdict
export function formatTable(rows: Row[]): string[]
export function summaryLine(verdict: Verdict): string
export function svelteScriptsAsTs(text: string): string
