// A clock that moves only when a test says so, for the simulator and the token manager.
export const T0 = Date.parse('2025-03-10T09:00:00.000Z')

export function fakeClock(start = T0) {
  let now = start
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms
    }
  }
}
