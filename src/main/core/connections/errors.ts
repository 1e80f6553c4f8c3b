// Failures of managing connections (bad settings, a duplicate name, no keychain, no secret),
// in the same taxonomy as API errors so the UI and the CLI show one vocabulary.
import type { z } from 'zod'
import type { ErrorKind } from '../../../shared/error-kinds'

export class ConnectionError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    /** The settings field at fault, when there is one (e.g. "baseUrl"). */
    readonly field?: string
  ) {
    super(message)
    this.name = 'ConnectionError'
  }
}

/** Text with every occurrence of the given secrets masked: a last guard for messages. */
export function redact(text: string, secrets: readonly (string | undefined | null)[]): string {
  let out = text
  for (const secret of secrets) {
    // Very short values would mask ordinary words; real secrets are longer than this.
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]')
  }
  return out
}

/** Settings from untrusted input, by `schema`; a ZodError becomes a ConnectionError naming the field. */
export function parseSettings<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]
  const field = issue?.path.map(String).join('.') || undefined
  const reason = issue?.message ?? 'invalid settings'
  throw new ConnectionError('configuration', field ? `${field}: ${reason}` : reason, field)
}
