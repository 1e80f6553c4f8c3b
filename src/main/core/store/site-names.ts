// Names the operator gave to site codes (migration 11): the API only says "siteCode: 311".
import type { Db } from './db'
import { statement } from './statements'

export interface SiteName {
  code: number
  name: string
}

/** A name is one line of at most this many characters. */
export const SITE_NAME_MAX = 80

/** Every named site, by code. */
export function listSiteNames(db: Db): SiteName[] {
  return statement(db, 'SELECT code, name FROM site_names ORDER BY code').all() as SiteName[]
}

/** The names as a lookup, for labelling many rows at once. */
export function siteNameBook(db: Db): Map<number, string> {
  return siteNameBookOf(listSiteNames(db))
}

/** The names read beforehand (store.read.sites.names) as a lookup. */
export const siteNameBookOf = (names: readonly SiteName[]): Map<number, string> => new Map(names.map((s) => [s.code, s.name]))

/** Why a code or name cannot be kept, in words; null when it can. */
export function siteNameProblem(code: number, name: string | null): string | null {
  if (!Number.isFinite(code)) return `a site code is a number (got ${String(code)})`
  if (name === null) return null
  const trimmed = name.trim()
  if (trimmed === '') return 'a site name cannot be empty (to remove a name, remove it)'
  if (trimmed.length > SITE_NAME_MAX) return `a site name has at most ${SITE_NAME_MAX} characters (got ${trimmed.length})`
  if (/[\r\n\t]/.test(trimmed)) return 'a site name is one line'
  return null
}

/** Names the site (a name replaces the one before), or forgets its name with null. */
export function setSiteName(db: Db, code: number, name: string | null): void {
  const problem = siteNameProblem(code, name)
  if (problem) throw new RangeError(problem)
  if (name === null) statement(db, 'DELETE FROM site_names WHERE code = ?').run(code)
  else statement(db, 'INSERT INTO site_names (code, name) VALUES (?, ?) ON CONFLICT (code) DO UPDATE SET name = excluded.name').run(code, name.trim())
}

/** A breakdown key's site name: the site dimension's keys are codes as text. */
export function breakdownKeyName(book: Map<number, string>, dimension: string, key: string | null): string | null {
  return dimension === 'site' && key !== null ? (book.get(Number(key)) ?? null) : null
}
