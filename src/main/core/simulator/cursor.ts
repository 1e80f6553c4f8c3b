// Opaque keyset cursors: a page continues after the last key it returned, so records that
// appear while a client pages through are never skipped or repeated.

export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url')
}

export function decodeCursor(cursor: string): (string | number)[] | null {
  try {
    const key: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (Array.isArray(key) && key.every((k) => typeof k === 'string' || typeof k === 'number')) return key
    return null
  } catch {
    return null
  }
}
