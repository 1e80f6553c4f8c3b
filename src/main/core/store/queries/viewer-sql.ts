// SQL fragments about viewers shared by the viewer page and the breakdowns.
//
// A viewer may have several network connections; site and connection type come from the first
// one the service listed (position 0), the one the viewer started on. `type` is not described by
// the spec (the simulator sends {"kind": "wired"}): its label is the object's `kind`, else `type`,
// else `name`, a bare JSON string as itself, else the JSON text as stored.

/** Joins a viewer `v` to its first network connection `vc` (absent: NULL columns). */
export const FIRST_CONNECTION = 'LEFT JOIN viewer_connections vc ON vc.viewer = v.id AND vc.position = 0'

/** The label of `vc.type_json` (see above). */
export const CONNECTION_TYPE = `(CASE
  WHEN vc.type_json IS NULL THEN NULL
  WHEN NOT json_valid(vc.type_json) THEN vc.type_json
  WHEN json_type(vc.type_json) = 'object' THEN CAST(COALESCE(json_extract(vc.type_json, '$.kind'),
    json_extract(vc.type_json, '$.type'), json_extract(vc.type_json, '$.name'), vc.type_json) AS TEXT)
  WHEN json_type(vc.type_json) = 'text' THEN json_extract(vc.type_json, '$')
  ELSE vc.type_json END)`

/** rebufferingTime / (rebufferingTime + viewingTime); NULL when unknown or zero. */
export const REBUFFERING_RATIO = '(1.0 * v.rebuffering_time / NULLIF(v.rebuffering_time + v.viewing_time, 0))'
/** cdnErrors / cdnResponses; NULL when unknown or no responses. */
export const CDN_ERROR_RATE = '(1.0 * v.cdn_errors / NULLIF(v.cdn_responses, 0))'

/** CONNECTION_TYPE in JS, for labels computed once per distinct `type_json` (breakdowns). */
export function connectionTypeLabel(typeJson: string | null): string | null {
  if (typeJson === null) return null
  let value: unknown
  try {
    value = JSON.parse(typeJson)
  } catch {
    return typeJson
  }
  if (typeof value === 'string') return value
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return typeJson
  const object = value as Record<string, unknown>
  for (const key of ['kind', 'type', 'name']) {
    const field = object[key]
    if (field === undefined || field === null) continue
    // As SQLite renders it: strings as is, true/false as 1/0, objects and arrays as JSON.
    if (typeof field === 'string') return field
    if (typeof field === 'boolean') return field ? '1' : '0'
    return typeof field === 'object' ? JSON.stringify(field) : String(field)
  }
  return typeJson
}
