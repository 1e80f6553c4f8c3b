// Retry-After (RFC 9110 §10.2.3): delta-seconds or an HTTP-date. Capped, so a service that
// asks for an hour cannot park a poller for an hour; unreadable values are ignored (the
// retry policy then falls back to its own backoff).

export const MAX_RETRY_AFTER_MS = 5 * 60_000

export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  const text = value?.trim()
  if (!text) return undefined
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS)
  // Date.parse reads the IMF-fixdate form ("Sun, 06 Nov 1994 08:49:37 GMT") and its relatives;
  // it would also read "1.5" as a date, hence the demand for a month or day name.
  if (!/[a-z]/i.test(text)) return undefined
  const at = Date.parse(text)
  if (Number.isNaN(at)) return undefined
  return Math.min(Math.max(0, at - now), MAX_RETRY_AFTER_MS)
}
