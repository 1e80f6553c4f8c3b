// A core's requests and pushes typed by the contract, as AppClient gives them to a page: a caller
// in this process (the CLI) names a request and gets its result's type, checked the same way.
import type { EventName, EventPayload, RequestArgs, RequestContext, RequestName, RequestResult } from '../../../shared/contract'
import type { Result } from '../../../shared/result'
import type { Dispatch } from './dispatch'
import type { AppCore, EventListener } from './types'

export function typedFace(dispatch: Dispatch, subscribe: (listener: EventListener) => () => void): Pick<AppCore, 'request' | 'on'> {
  return {
    // The dispatch validated the arguments and the handler answered by the contract's types.
    request: <N extends RequestName>(name: N, args: RequestArgs<N>, context?: RequestContext) =>
      dispatch(name, args, context) as Promise<Result<RequestResult<N>>>,
    on: <E extends EventName>(name: E, listener: (payload: EventPayload<E>) => void) =>
      subscribe((pushed, payload) => {
        if ((pushed as EventName) === name) listener(payload as unknown as EventPayload<E>)
      })
  }
}
