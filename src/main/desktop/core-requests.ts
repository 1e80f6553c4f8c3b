// Typed requests from the desktop side (tray) to the core, checked against the contract's result
// schemas: a wrong answer is logged and treated as no answer, never trusted by a cast.
import { requests } from '../../shared/contract'
import type { RequestArgs, RequestName, RequestResult } from '../../shared/contract'
import type { AppCore } from '../core/app/types'

export async function ask<N extends RequestName>(
  core: Pick<AppCore, 'dispatch'>,
  name: N,
  args: RequestArgs<N>
): Promise<RequestResult<N> | undefined> {
  try {
    const result = await core.dispatch(name, args)
    if (!result.ok) {
      console.error(`eventwatch: ${name} failed: ${result.error.message}`)
      return undefined
    }
    const parsed = requests[name].result.safeParse(result.value)
    if (!parsed.success) {
      console.error(`eventwatch: ${name} answered something unexpected`)
      return undefined
    }
    return parsed.data as RequestResult<N>
  } catch (error) {
    console.error(`eventwatch: ${name} failed`, error)
    return undefined
  }
}
