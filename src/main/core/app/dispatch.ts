// Turns a raw (name, args) pair from any face into a validated handler call and a Result.
import { isRequestName, requests, type AuditWriter, type RequestContext, type RequestHandlers, type RequestName } from '../../../shared/contract'
import { ERROR_KINDS } from '../../../shared/error-kinds'
import { fail, ok, type Result } from '../../../shared/result'
import { actionWords } from '../../../shared/request-words'
import { isChange, mayRequest } from '../../../shared/permissions'
import { findNonPlainData } from './plain-data'
import { localContext } from '../team/local-actor'

export type Handlers = RequestHandlers

/** Without a context the machine's own administrator asks (desktop, CLI, loopback host). */
export type Dispatch = (name: unknown, args: unknown, context?: RequestContext) => Promise<Result<unknown>>

export interface DispatchHooks {
  /** After a request that changed something succeeded: the audit log's entry. */
  changed?(name: RequestName, args: unknown, context: RequestContext): Promise<void> | void
  /** The same entry written at once, for a handler to call inside its own transaction
   *  (context.auditNow): then it commits with the change, and `changed` is not called. */
  changedNow?(name: RequestName, args: unknown, context: RequestContext): void
  /** The same entry written by a handler's unit of work, on the audit store it passes
   *  (context.auditIn): it commits with the change, and `changed` is not called. */
  changedIn?(audit: AuditWriter, name: RequestName, args: unknown, context: RequestContext): Promise<void>
}

export function createDispatch(handlers: Handlers, hooks: DispatchHooks = {}): Dispatch {
  return async (name, args, context = localContext()) => {
    if (!isRequestName(name)) return fail('unknown-request', `Unknown request ${describe(name)}.`)
    const nonPlain = findNonPlainData(args)
    if (nonPlain) {
      const where = nonPlain.path ? `${clip(nonPlain.path, 80)}: ` : ''
      return fail('invalid-arguments', `${name}: ${where}expected plain data, received ${nonPlain.type}`)
    }
    const parsed = requests[name].args.safeParse(args ?? {})
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      const field = clip(issue?.path.map(String).join('.') ?? '', 80)
      // zod quotes unknown keys and values back: a huge one must not come back whole.
      const problem = clip(issue?.message ?? 'invalid arguments', MAX_MESSAGE_LENGTH)
      return fail('invalid-arguments', clip(`${name}: ${field ? `${field}: ` : ''}${problem}`, MAX_MESSAGE_LENGTH), { field, problem })
    }
    // The role decides before anything runs: a viewer's acknowledgement changes nothing.
    const permitted = mayRequest(context.actor.role, name, parsed.data)
    if (!permitted.allowed) return fail('forbidden', permitted.message)
    try {
      const handler = handlers[name] as (a: unknown, c: RequestContext) => unknown
      const change = isChange(name, parsed.data)
      let audited = false
      const auditNow = (): void => {
        hooks.changedNow?.(name, parsed.data, context)
        audited = hooks.changedNow !== undefined
      }
      const auditIn = async (audit: AuditWriter): Promise<void> => {
        await hooks.changedIn?.(audit, name, parsed.data, context)
        audited = hooks.changedIn !== undefined
      }
      const value = await handler(parsed.data, change ? { ...context, auditNow, auditIn } : context)
      // Answered only once its audit entry is written: what a page was told happened is on record.
      if (change && !audited) await hooks.changed?.(name, parsed.data, context)
      return ok(value)
    } catch (error) {
      const reason = error instanceof Error ? error.message : 'a non-Error value was thrown'
      // The action in words: a person reads this, not the request's name in the code.
      return fail(errorCode(error), clip(`${actionWords(name, parsed.data)} failed: ${reason}`, MAX_MESSAGE_LENGTH))
    }
  }
}

const MAX_MESSAGE_LENGTH = 400

/** An error of a kind of the taxonomy (an unknown connection or alert id, a setting the store
 *  refused) keeps its kind as the code: a face tells what its user fixes from the rest, as the
 *  CLI's exit code does. Anything else a handler throws is 'internal'. */
function errorCode(error: unknown): string {
  const kind = error instanceof Error ? (error as { kind?: unknown }).kind : undefined
  return typeof kind === 'string' && (ERROR_KINDS as readonly string[]).includes(kind) ? kind : 'internal'
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** Names arrive from another process: anything, including objects with no prototype. */
function describe(name: unknown): string {
  return typeof name === 'string' ? `"${name.slice(0, 60)}"` : `of type ${typeof name}`
}
