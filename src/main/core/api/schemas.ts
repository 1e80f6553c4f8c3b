// Runtime shapes of the API's responses. Tolerant where the spec is silent: numbers may come
// as numeric strings, unknown fields are kept, optional lists may be missing.
import { z } from 'zod'

const NUMERIC = /^\s*-?\d+(\.\d+)?([eE][+-]?\d+)?\s*$/

const numberLike = z.union([z.number().finite(), z.string().regex(NUMERIC).transform(Number)])
const dateTime = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a date-time')
const booleanLike = z.union([z.boolean(), z.enum(['true', 'false']).transform((s) => s === 'true')])

// A usable access_token is used whatever expires_in says: 0, negative, null, text or absent
// get the spec's 3 hours (tokens.ts), and a 401 renews a token that dies sooner.
export const TokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.unknown().optional(),
  expires_in: numberLike.pipe(z.number().positive().max(366 * 86_400)).optional().catch(undefined)
})

export const EventSessionSchema = z.looseObject({
  eventSessionId: z.string().min(1),
  platformId: z.string(),
  tenantId: z.string(),
  contentId: z.string(),
  eventName: z.string().nullish(),
  startedAt: dateTime,
  updatedAt: dateTime,
  hasEnded: booleanLike,
  viewersCount: numberLike,
  reliabilityScore: numberLike,
  cdnTraffic: numberLike,
  ecdnTraffic: numberLike
})
export type EventSessionRecord = z.output<typeof EventSessionSchema>

// A cursor is opaque: a number is taken as its decimal text (a number past 2^53 has lost digits
// in JSON.parse already: docs/api-assumptions.md says so).
const CursorSchema = z.union([z.string(), z.number().finite().transform(String)]).nullish()
const PaginationSchema = z.looseObject({ nextCursor: CursorSchema }).nullish()

/** The envelope only: items are checked one by one so one bad record cannot sink a page. */
export const SessionListPageSchema = z.looseObject({
  data: z.array(z.unknown()).nullish(),
  pagination: PaginationSchema
})

// Viewer fields' presence is not shown by the spec: everything but the id is optional, and a
// value of the wrong type is dropped (kept in the raw JSON) rather than failing the record.
const optionalNumber = numberLike.optional().catch(undefined)
const optionalString = z.string().optional().catch(undefined)
const optionalDateTime = dateTime.optional().catch(undefined)

export const NetworkConnectionSchema = z.looseObject({
  connectionStarted: optionalDateTime,
  publicIp: optionalString,
  privateIp: optionalString,
  type: z.unknown().optional(),
  proxy: z.array(z.string()).optional().catch(undefined),
  siteCode: optionalNumber
})

export const ViewerSchema = z.looseObject({
  viewerId: z.union([z.string().min(1), z.number().transform(String)]),
  deviceType: optionalString,
  os: optionalString,
  app: optionalString,
  networkConnections: z.array(NetworkConnectionSchema).optional().catch(undefined),
  reliabilityScore: optionalNumber,
  rebufferingEvents: optionalNumber,
  rebufferingTime: optionalNumber,
  viewingTime: optionalNumber,
  startedAt: optionalDateTime,
  endedAt: optionalDateTime,
  cdnTraffic: optionalNumber,
  ecdnTraffic: optionalNumber,
  cdnResponses: optionalNumber,
  cdnErrors: optionalNumber
})
export type ViewerRecord = z.output<typeof ViewerSchema>

/** The envelope of a viewer page; items are checked one by one. */
export const ViewerListPageSchema = z.looseObject({
  eventSessionId: z.string().optional(),
  startedAt: z.string().optional(),
  updatedAt: z.string().optional(),
  data: z.array(z.unknown()).nullish(),
  pagination: PaginationSchema
})
