// SQL fragments about viewers on PostgreSQL, as queries/viewer-sql.ts has them for SQLite: a
// viewer `v` and its first network connection `vc`, keyed by (list_id, ordinal).
//
// Text compares as SQLite compares it: `COLLATE "C"` is byte order (SQLite's BINARY, whatever the
// database's locale), and lower() under it folds ASCII only (SQLite's NOCASE, and its LIKE).

/** Joins a viewer `v` to its first network connection `vc` (absent: NULL columns). */
export const FIRST_CONNECTION = 'LEFT JOIN viewer_connections vc ON vc.list_id = v.list_id AND vc.ordinal = v.ordinal AND vc.position = 0'

/** A column compared as SQLite's NOCASE does. */
export const NOCASE = (column: string): string => `lower(${column} COLLATE "C")`

/** A column compared as SQLite's BINARY does. */
export const BINARY = (column: string): string => `(${column} COLLATE "C")`

const TYPE = 'vc.type_json::jsonb'

/** One field of the type object, as connectionTypeLabel renders it: text as is, true/false as 1/0. */
const field = (key: string): string => `(CASE jsonb_typeof(${TYPE} -> '${key}')
    WHEN 'boolean' THEN CASE WHEN (${TYPE} -> '${key}')::boolean THEN '1' ELSE '0' END
    ELSE ${TYPE} ->> '${key}' END)`

/**
 * The label of `vc.type_json` (queries/viewer-sql.ts says why): the object's `kind`, else `type`,
 * else `name`, a bare JSON string as itself, else the JSON text as stored. type_json is always
 * JSON (the writer stores JSON.stringify's). A field that is itself an object or an array is
 * spelled with PostgreSQL's spacing, where the breakdowns spell it without: no service sends one.
 */
export const CONNECTION_TYPE = `(CASE
  WHEN vc.type_json IS NULL THEN NULL
  WHEN jsonb_typeof(${TYPE}) = 'object' THEN COALESCE(${field('kind')}, ${field('type')}, ${field('name')}, vc.type_json)
  WHEN jsonb_typeof(${TYPE}) = 'string' THEN ${TYPE} #>> '{}'
  ELSE vc.type_json END)`

/** rebufferingTime / (rebufferingTime + viewingTime); NULL when unknown or zero. */
export const REBUFFERING_RATIO = '(v.rebuffering_time / NULLIF(v.rebuffering_time + v.viewing_time, 0))'
/** cdnErrors / cdnResponses; NULL when unknown or no responses. */
export const CDN_ERROR_RATE = '(v.cdn_errors / NULLIF(v.cdn_responses, 0))'

/** The held list of a session: its id and what is kept on it. $1 connection, $2 session. */
export const HELD_LIST = 'FROM viewer_lists WHERE connection_id = $1 AND event_session_id = $2 AND staged_at IS NULL'
