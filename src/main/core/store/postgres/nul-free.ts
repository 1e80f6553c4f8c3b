// PostgreSQL's text cannot hold NUL, and jsonb refuses the escape \u0000 (SQLite keeps both). The
// service's data is hostile: one session named "Town\0hall" must not fail the unit that stores
// its tenant's whole list. So a NUL goes in as U+FFFD, as an undecodable byte would, and so does
// the JSON escape of one — in every statement's parameters (pg-store.ts), the viewer lists' COPY
// (viewer-copy.ts) and `store copy` (copy/cell-values.ts).

const NUL = /\0/g
/** \u0000 preceded by an even run of backslashes: an escape, not the text "\u0000" quoted. */
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g

/** `text` with each NUL as U+FFFD. */
export function nulFree(text: string): string {
  return text.includes('\0') ? text.replace(NUL, '\uFFFD') : text
}

/** JSON text with each NUL, raw or escaped, as U+FFFD (a quoted "\\u0000" stays as it is). */
export function nulFreeJson(text: string): string {
  const raw = nulFree(text)
  return raw.includes('\\u0000') ? raw.replace(ESCAPED_NUL, '$1\\ufffd') : raw
}

/** A text parameter, which may be JSON for a jsonb column: an object or an array is read as such. */
function nulFreeParameter(value: unknown): unknown {
  if (typeof value !== 'string') return value
  const first = value.trimStart()[0]
  return first === '{' || first === '[' ? nulFreeJson(value) : nulFree(value)
}

/** A statement's parameters as PostgreSQL takes them: each text, and each text of an array
 *  (unnest's columns), NUL-free. The same array when nothing needed it. */
export function nulFreeParameters(values: readonly unknown[] | undefined): readonly unknown[] | undefined {
  if (!values) return values
  let changed: unknown[] | null = null
  values.forEach((value, at) => {
    const fixed = Array.isArray(value) ? nulFreeArray(value) : nulFreeParameter(value)
    if (fixed !== value) (changed ??= [...values])[at] = fixed
  })
  return changed ?? values
}

function nulFreeArray(values: readonly unknown[]): readonly unknown[] {
  let changed: unknown[] | null = null
  values.forEach((value, at) => {
    const fixed = nulFreeParameter(value)
    if (fixed !== value) (changed ??= [...values])[at] = fixed
  })
  return changed ?? values
}
