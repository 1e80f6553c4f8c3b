// A fake AppClient for the rune-store specs: the test says how each request is answered
// (now, or later when it settles a held request), and every call is recorded.
import type { AppClient } from '../../../src/shared/client'
import type { RequestArgs, RequestName, RequestResult } from '../../../src/shared/contract'
import { fail, ok, type Result } from '../../../src/shared/result'

type Answer<N extends RequestName> = (args: RequestArgs<N>) => Result<RequestResult<N>> | Promise<Result<RequestResult<N>>>

/** A request the fake holds until the test settles it. */
export interface Held<N extends RequestName> {
  args: RequestArgs<N>
  settle(result: Result<RequestResult<N>>): void
}

export class FakeClient implements AppClient {
  readonly calls: Array<{ name: RequestName; args: unknown }> = []
  private readonly answers = new Map<RequestName, (args: never) => unknown>()

  /** Answers every later `name` request with `answer(args)`. */
  answer<N extends RequestName>(name: N, answer: Answer<N>): this {
    this.answers.set(name, answer)
    return this
  }

  /** Answers every later `name` request with this value. */
  succeed<N extends RequestName>(name: N, value: RequestResult<N>): this {
    return this.answer(name, () => ok(value))
  }

  /** Fails every later `name` request with this message. */
  refuse(name: RequestName, message: string): this {
    return this.answer(name, () => fail('internal', message))
  }

  /** Holds every later `name` request; the returned list fills as requests arrive. */
  hold<N extends RequestName>(name: N): Array<Held<N>> {
    const held: Array<Held<N>> = []
    this.answer(name, (args) => new Promise((settle) => held.push({ args, settle })))
    return held
  }

  /** The arguments of every `name` request so far, in order. */
  argsOf<N extends RequestName>(name: N): Array<RequestArgs<N>> {
    return this.calls.filter((c) => c.name === name).map((c) => c.args as RequestArgs<N>)
  }

  request = (async (name: RequestName, args: unknown) => {
    this.calls.push({ name, args })
    const answer = this.answers.get(name) as ((args: unknown) => unknown) | undefined
    return answer ? answer(args) : fail('unknown-request', `the fake client has no answer for ${name}`)
  }) as AppClient['request']

  on: AppClient['on'] = () => () => {}
}

