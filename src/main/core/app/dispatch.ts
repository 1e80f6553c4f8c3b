// Turns a raw (name, args) pair from any face into a validated handler call and a Result.
import { isRequestName, requests, type RequestName, type RequestResult } from '../../../shared/contract'
import { fail, ok, type Result } from '../../../shared/result'
import type { z } from 'zod'

export type Handlers = {
  [N in RequestName]: (args: z.output<(typeof requests)[N]['args']>) => Promise<RequestResult<N>> | RequestResult<N>
}

export type Dispatch = (name: unknown, args: unknown) => Promise<Result<unknown>>

export function createDispatch(handlers: Handlers): Dispatch {
  return async (name, args) => {
    if (!isRequestName(name)) return fail('unknown-request', `Unknown request ${describe(name)}.`)
    const parsed = requests[name].args.safeParse(args ?? {})
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const where = issue?.path.length ? `${issue.path.map(String).join('.')}: ` : ''
      return fail('invalid-arguments', `${name}: ${where}${issue?.message ?? 'invalid arguments'}`)
    }
    try {
      const handler = handlers[name] as (a: unknown) => unknown
      return ok(await handler(parsed.data))
    } catch (error) {
      return fail('internal', `${name} failed: ${error instanceof Error ? error.message : 'a non-Error value was thrown'}`)
    }
  }
}

/** Names arrive from another process: anything, including objects with no prototype. */
function describe(name: unknown): string {
  return typeof name === 'string' ? `"${name.slice(0, 60)}"` : `of type ${typeof name}`
}
