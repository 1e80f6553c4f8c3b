// Query strings for the list and get calls. Only parameters the caller set are sent: the spec
// does not show allowed values of aggr, orderBy or orderAsc, so the client never invents them.
import { ApiError } from './errors'

export type DateParam = Date | string

export interface ListSessionsParams {
  startedAtFrom?: DateParam
  startedAtTo?: DateParam
  endedAtFrom?: DateParam
  endedAtTo?: DateParam
  aggr?: string
  orderBy?: string
  /** Sent as "true"/"false" for a boolean, as given for a string. */
  orderAsc?: boolean | string
  /** Start from this cursor instead of the first page. */
  cursor?: string
}

export interface GetSessionParams {
  aggr?: string
}

const DATE_PARAMS = ['startedAtFrom', 'startedAtTo', 'endedAtFrom', 'endedAtTo'] as const

/** The list's filters (cursor excluded: pagination adds it), validated before any request. */
export function sessionFilters(endpoint: string, params: ListSessionsParams): [string, string][] {
  const pairs: [string, string][] = []
  for (const name of DATE_PARAMS) {
    const value = params[name]
    if (value === undefined || value === '') continue
    pairs.push([name, isoInstant(endpoint, name, value)])
  }
  if (params.aggr) pairs.push(['aggr', params.aggr])
  if (params.orderBy) pairs.push(['orderBy', params.orderBy])
  if (typeof params.orderAsc === 'boolean') pairs.push(['orderAsc', String(params.orderAsc)])
  else if (params.orderAsc) pairs.push(['orderAsc', params.orderAsc])
  return pairs
}

/** ISO 8601 instant (UTC, milliseconds): the least ambiguous date-time a service can get. */
function isoInstant(endpoint: string, name: string, value: DateParam): string {
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) {
    throw new ApiError('configuration', endpoint, `${name} is not a valid date-time`)
  }
  return date.toISOString()
}

export function withQuery(path: string, pairs: readonly [string, string][]): string {
  return pairs.length === 0 ? path : `${path}?${new URLSearchParams(pairs as [string, string][]).toString()}`
}
