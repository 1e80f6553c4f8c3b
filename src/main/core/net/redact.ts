// Secrets never reach a screen, a log line, stderr or the cache (issue 13): every client secret
// the process is given and every access token it receives is remembered here, and every text
// the project stores or prints goes through redact() on its way out, wherever the text came from
// (an error body that echoes the secret, an exception's message, a URL).

/** Shorter values would redact ordinary words; no real secret or token is this short. */
const MIN_LENGTH = 6
/** Tokens come every few hours for weeks: the newest are kept, the oldest forgotten. */
const MAX_REMEMBERED = 64

const remembered: string[] = []
let pattern: RegExp | null = null

export const REDACTED = '[redacted]'

/** From now on, `value` is replaced by [redacted] in every text that goes out. */
export function rememberSecret(value: string | undefined | null): void {
  if (!value || value.length < MIN_LENGTH || remembered.includes(value)) return
  remembered.push(value)
  if (remembered.length > MAX_REMEMBERED) remembered.shift()
  // Longest first, so a secret that contains another is replaced whole.
  const alternatives = [...remembered].sort((a, b) => b.length - a.length).map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
  pattern = new RegExp(alternatives.join('|'), 'g')
}

/** `text` with every remembered secret and token replaced by [redacted]. */
export function redact(text: string): string {
  return pattern ? text.replace(pattern, REDACTED) : text
}

/** For tests: forget everything remembered. */
export function forgetSecrets(): void {
  remembered.length = 0
  pattern = null
}
