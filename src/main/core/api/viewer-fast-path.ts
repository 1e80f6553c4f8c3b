// Most viewer records arrive exactly as the schema's output: zod then only costs time (about
// half a second per 85,000 viewers). A record whose every known field is absent or already of
// its final type is taken as it is; anything else still goes through ViewerSchema.
import type { ViewerRecord } from './schemas'

type Check = (value: unknown) => boolean

const isString: Check = (v) => typeof v === 'string'
const isNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v)
// An ISO 8601 instant, as services send them, is recognised by its shape (Date.parse costs as
// much again, and the store parses the times anyway); anything else is left to the schema.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/
const isDateTime: Check = (v) => typeof v === 'string' && ISO_INSTANT.test(v)
const isStringArray: Check = (v) => Array.isArray(v) && v.every(isString)

const CONNECTION_FIELDS: Record<string, Check> = {
  connectionStarted: isDateTime,
  publicIp: isString,
  privateIp: isString,
  proxy: isStringArray,
  siteCode: isNumber
}

const isConnection: Check = (v) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && fieldsPass(v as Record<string, unknown>, CONNECTION_FIELDS)

const VIEWER_FIELDS: Record<string, Check> = {
  deviceType: isString,
  os: isString,
  app: isString,
  networkConnections: (v) => Array.isArray(v) && v.every(isConnection),
  reliabilityScore: isNumber,
  rebufferingEvents: isNumber,
  rebufferingTime: isNumber,
  viewingTime: isNumber,
  startedAt: isDateTime,
  endedAt: isDateTime,
  cdnTraffic: isNumber,
  ecdnTraffic: isNumber,
  cdnResponses: isNumber,
  cdnErrors: isNumber
}

function fieldsPass(record: Record<string, unknown>, checks: Record<string, Check>): boolean {
  for (const field in checks) {
    const value = record[field]
    if (value !== undefined && !(checks[field] as Check)(value)) return false
  }
  return true
}

/** The record itself when it needs no parsing, else null (let the schema decide). */
export function viewerAsIs(item: unknown): ViewerRecord | null {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return null
  const record = item as Record<string, unknown>
  if (typeof record.viewerId !== 'string' || record.viewerId.length === 0) return null
  return fieldsPass(record, VIEWER_FIELDS) ? (record as ViewerRecord) : null
}
