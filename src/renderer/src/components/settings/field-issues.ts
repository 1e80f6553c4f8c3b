// Turns a shared zod schema's verdict on a form into one plain sentence per field, so the form
// explains a bad value as it is typed, with the very rules the core applies before saving.
import type { z } from 'zod'

/** How a field's numbers read: "5 seconds", "1 day". */
export interface FieldWords {
  unit?: string
}

/** A text box's content as the number the schema checks: empty is "missing", junk is NaN. */
export function numberFromInput(text: string): number | undefined {
  const trimmed = text.trim()
  return trimmed === '' ? undefined : Number(trimmed)
}

const amount = (n: unknown, unit: string | undefined): string =>
  unit ? `${String(n)} ${unit}${n === 1 ? '' : 's'}` : String(n)

/** One issue in words a person reads: "must be at least 5 seconds". */
export function describeIssue(issue: z.core.$ZodIssue, words: FieldWords = {}, input?: unknown): string {
  switch (issue.code) {
    case 'too_small':
      // A text that must have at least one character is simply required.
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'is required'
      return `must be at least ${amount(issue.minimum, words.unit)}`
    case 'too_big':
      return `must be at most ${amount(issue.maximum, words.unit)}`
    case 'invalid_type':
      if (issue.expected === 'int') return 'must be a whole number'
      return input === undefined ? 'is required' : 'must be a number'
    default:
      return issue.message
  }
}

/**
 * Per field, the first problem the schema finds, in words. Empty when the value is valid.
 * Issues without a field (a refinement of the whole form) are under ''.
 */
export function fieldIssues(
  schema: z.ZodType,
  value: unknown,
  words: Record<string, FieldWords> = {}
): Record<string, string> {
  const result = schema.safeParse(value)
  if (result.success) return {}
  const issues: Record<string, string> = {}
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? '')
    const input = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[field] : value
    issues[field] ??= describeIssue(issue, words[field], input)
  }
  return issues
}
