// A concern, or some methods of one, that the PostgreSQL store does not implement yet (issue 26
// ports them one by one; the contract's backends.ts lists which are pending): every such call
// rejects in words instead of answering something else.
const refusal = (concern: string, method: string) => () =>
  Promise.reject(new Error(`${concern}.${method} is not implemented on PostgreSQL yet (issue 26)`))

/** `implemented`'s methods; any other method of the concern rejects. */
export function partlyPorted<T extends object>(concern: string, implemented: Partial<T>): T {
  return new Proxy(implemented as T, {
    get(target, method, receiver) {
      if (typeof method !== 'string' || method in target) return Reflect.get(target, method, receiver) as unknown
      // Not a thenable: the concern itself is never awaited.
      return method === 'then' ? undefined : refusal(concern, method)
    }
  })
}

export const notPorted = <T extends object>(concern: string): T => partlyPorted<T>(concern, {})
