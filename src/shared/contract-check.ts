// Answers and pushes that crossed a network (a team server's, to a desk) checked against the
// contract before anything of them is used: a server of another version, or a proxy between the
// two, may send anything. What passes is the contract's parse (keys it does not know dropped);
// what does not is named by the request or push and its first wrong field, in plain short words,
// since the values zod quotes back are the sender's.
import { z } from 'zod'
import { events, requests, type EventName, type EventPayload, type RequestName, type RequestResult } from './contract'
import { plainText, shorten } from './plain-text'
import type { AppError } from './result'

/** What passed, or what did not fit as a clause: "answered listAlerts outside the contract, at
 *  situation.revision: …" (said of the sender). */
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string }

/** What a refusal carries across: a short code and one short sentence. */
const ErrorSchema = z.object({ code: z.string().min(1).max(100), message: z.string().max(2000) })
/** Any answer: a Result, its value checked afterwards by the request's own schema. */
const ResultSchema = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: ErrorSchema })
])

const MAX_PROBLEM_LENGTH = 300

/** The first issue as "field: what is wrong", made plain and short. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]
  const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : ''
  return shorten(plainText(`${where}${issue?.message ?? 'not what was expected'}`), MAX_PROBLEM_LENGTH)
}

/** An answer's body to `name`: its value as the contract reads it, the refusal it carries (its
 *  words made plain), or what does not fit. */
export function checkAnswer<N extends RequestName>(name: N, body: unknown): Checked<{ ok: true; value: RequestResult<N> } | { ok: false; error: AppError }> {
  const result = ResultSchema.safeParse(body)
  if (!result.success) return { ok: false, problem: `answered ${name} with something that is not a result, at ${firstIssue(result.error)}` }
  if (!result.data.ok) {
    const { code, message } = result.data.error
    return { ok: true, value: { ok: false, error: { code: plainText(code), message: shorten(plainText(message), 500) } } }
  }
  const value = requests[name].result.safeParse(result.data.value)
  if (!value.success) return { ok: false, problem: `answered ${name} outside the contract, at ${firstIssue(value.error)}` }
  return { ok: true, value: { ok: true, value: value.data as RequestResult<N> } }
}

/** A push's payload, as the contract reads it, or what does not fit. */
export function checkPush<E extends EventName>(name: E, payload: unknown): Checked<EventPayload<E>> {
  const parsed = events[name].safeParse(payload)
  if (!parsed.success) return { ok: false, problem: `pushed ${name} outside the contract, at ${firstIssue(parsed.error)}` }
  return { ok: true, value: parsed.data as EventPayload<E> }
}
