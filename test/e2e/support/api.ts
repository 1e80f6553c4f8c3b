// The app API as a script uses it (README "The browser host"): POST /api/request/<name> with the
// launch's token as a bearer token. Specs set the stage through it (rules, levels, acknowledging,
// pausing) and read the core's own verdicts to compare the screens with.
import type { RequestArgs, RequestName, RequestResult } from '../../../src/shared/contract'
import type { Result } from '../../../src/shared/result'
import type { BrowserHost } from '../browser-host'

/** Makes one request of the host's app API; its answer, or an error naming what went wrong. */
export async function request<N extends RequestName>(host: Pick<BrowserHost, 'origin' | 'token'>, name: N, args: RequestArgs<N>): Promise<RequestResult<N>> {
  const response = await fetch(`${host.origin}/api/request/${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${host.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args)
  })
  const answer = (await response.json()) as Result<RequestResult<N>>
  if (!answer.ok) throw new Error(`${name} was refused: ${answer.error.message}`)
  return answer.value
}
