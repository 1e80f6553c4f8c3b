// A small seeded PRNG (mulberry32): the same seed gives the same demo, run after run.

export interface Random {
  next(): number
  int(minInclusive: number, maxInclusive: number): number
  between(min: number, max: number): number
  pick<T>(items: readonly T[]): T
  weighted<T>(items: readonly (readonly [T, number])[]): T
  chance(probability: number): boolean
  uuid(): string
}

export function createRandom(seed: number): Random {
  let state = seed >>> 0
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1))
  const hex = (n: number): string =>
    Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join('')
  return {
    next,
    int,
    between: (min, max) => min + next() * (max - min),
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list')
      return items[Math.floor(next() * items.length)] as (typeof items)[number]
    },
    weighted: (items) => {
      const total = items.reduce((sum, [, w]) => sum + w, 0)
      let roll = next() * total
      for (const [item, weight] of items) {
        roll -= weight
        if (roll < 0) return item
      }
      const last = items[items.length - 1]
      if (!last) throw new Error('weighted pick from an empty list')
      return last[0]
    },
    chance: (p) => next() < p,
    // RFC 4122 version 4 layout, from the seeded stream.
    uuid: () =>
      `${hex(8)}-${hex(4)}-4${hex(3)}-${(8 + Math.floor(next() * 4)).toString(16)}${hex(3)}-${hex(12)}`
  }
}
