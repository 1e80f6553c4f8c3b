// Request arguments are plain data: objects, arrays and primitives. zod reads a Date, Map, Set,
// typed array or boxed primitive as an object with no keys, so one would pass for "nothing set";
// IPC's structured clone carries all of those (and cycles), so they are refused before parsing.

export interface NonPlain {
  /** Dotted path to the value ('' for the arguments themselves). */
  path: string
  /** What it is: Date, Map, Boolean, Uint8Array… */
  type: string
}

/** The first value in `value` that is an object but neither a plain object nor an array. */
export function findNonPlainData(value: unknown): NonPlain | null {
  const seen = new Set<object>()
  // Iterative: arguments arrive from another process and may be nested deeper than the stack.
  const stack: [unknown, string][] = [[value, '']]
  while (stack.length > 0) {
    const [current, path] = stack.pop() as [unknown, string]
    if (typeof current !== 'object' || current === null || seen.has(current)) continue
    seen.add(current)
    const proto: unknown = Object.getPrototypeOf(current)
    const plain = proto === Object.prototype || proto === null || (Array.isArray(current) && proto === Array.prototype)
    if (!plain) return { path, type: Object.prototype.toString.call(current).slice(8, -1) }
    for (const key of Object.keys(current)) {
      stack.push([(current as Record<string, unknown>)[key], path ? `${path}.${key}` : key])
    }
  }
  return null
}
