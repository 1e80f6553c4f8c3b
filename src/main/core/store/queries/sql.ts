// Small helpers shared by the UI's queries: paging bounds, LIKE patterns, times at the boundary.

/** Rows per page when the caller does not say, and the most it may ask for. */
export const DEFAULT_LIMIT = 50
export const MAX_LIMIT = 1000

export function pageBounds(limit: number | undefined, offset: number | undefined): { limit: number; offset: number } {
  const whole = (n: number | undefined, fallback: number): number => (n === undefined || !Number.isFinite(n) ? fallback : Math.trunc(n))
  return {
    limit: Math.min(MAX_LIMIT, Math.max(0, whole(limit, DEFAULT_LIMIT))),
    offset: Math.max(0, whole(offset, 0))
  }
}

/**
 * A LIKE pattern matching `text` anywhere, with LIKE's own wildcards taken literally (use with
 * ESCAPE '\'). LIKE folds ASCII case only: "zürich" does not find "ZÜRICH" (no ICU in SQLite).
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

/** Whether a search box holds something to search for. */
export const hasText = (text: string | undefined): text is string => text !== undefined && text.trim() !== ''

export const iso = (ms: number): string => new Date(ms).toISOString()
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms))

/** ORDER BY direction with NULLs last both ways: an unknown value is never "the worst". */
export const direction = (descending: boolean | undefined): string => (descending ? 'DESC NULLS LAST' : 'ASC NULLS LAST')
/** The tie-breaker's direction, so ties stay in a stable order and an index can serve both. */
export const tieDirection = (descending: boolean | undefined): string => (descending ? 'DESC' : 'ASC')
