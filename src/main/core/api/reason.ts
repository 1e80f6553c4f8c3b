// The first words of an error body, so the UI can show "HTTP 503: upstream busy": the message of
// a JSON body, or the text of an HTML page without its tags. Never a token or a secret.
import { redact } from '../net/redact'

const MAX_REASON = 120

export function shortReason(text: string, secrets: readonly string[] = []): string {
  let reason = redact(jsonMessage(text) ?? htmlText(text))
  for (const secret of secrets) if (secret) reason = reason.split(secret).join('[redacted]')
  reason = reason.replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]')
  reason = reason.replace(/\s+/g, ' ').trim()
  return reason.length > MAX_REASON ? `${reason.slice(0, MAX_REASON - 1)}…` : reason
}

function jsonMessage(text: string): string | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof parsed === 'string') return parsed
  if (typeof parsed !== 'object' || parsed === null) return ''
  const o = parsed as Record<string, unknown>
  const nested = typeof o.error === 'object' && o.error !== null ? (o.error as Record<string, unknown>).message : undefined
  const found = [o.message, o.error_description, o.detail, o.title, nested, o.error].find(
    (v) => typeof v === 'string' && v.trim() !== ''
  )
  return typeof found === 'string' ? found : ''
}

function htmlText(text: string): string {
  return text
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<[^>]*>?/g, ' ')
    .replace(/&nbsp;/gi, ' ')
    .replace(/&amp;/gi, '&')
    .replace(/&(lt|gt|quot|#39|apos);/gi, ' ')
    .replace(/[<>]/g, ' ')
}
