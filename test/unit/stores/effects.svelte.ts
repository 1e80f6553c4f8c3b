// For the rune-store specs: what a component would see of a store.
import { flushSync } from 'svelte'

/**
 * Reads `read` in an effect, as a component's template would, then runs each step and lets the
 * effects settle after it. Returns the value at every run of the effect: a step that changed
 * nothing `read` depends on adds nothing.
 */
export function effectRuns<T>(read: () => T, steps: Array<() => unknown>): T[] {
  const seen: T[] = []
  const stop = $effect.root(() => {
    $effect(() => {
      seen.push(read())
    })
  })
  try {
    flushSync()
    for (const step of steps) {
      step()
      flushSync()
    }
    return seen
  } finally {
    stop()
  }
}
