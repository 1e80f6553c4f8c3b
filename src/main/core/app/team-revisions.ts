// A team client adds a shift to the revision of every alert situation it passes on (in a push or
// in an answer): its own words (the server went offline, it came back) then stay newer than the
// server's last, and the server's next stays newer than those. Everything else passes as it is.
export function shiftSituationRevision<T>(value: T, shift: number): T {
  if (shift === 0 || !value || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  // A Result ({ ok, value }) carries the page inside it.
  if ('ok' in record && 'value' in record) return { ...record, value: shiftSituationRevision(record['value'], shift) } as T
  const situation = record['situation'] as { revision?: unknown } | undefined
  if (situation && typeof situation.revision === 'number') {
    return { ...record, situation: { ...situation, revision: situation.revision + shift } } as T
  }
  if (typeof record['revision'] === 'number' && 'tray' in record) return { ...record, revision: (record['revision'] as number) + shift } as T
  return value
}
