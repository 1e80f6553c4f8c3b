// A settings form's drafts follow the saved values while the operator has not edited them, so a
// save made in another window (a settingsChanged push) shows here too; an edit under way is kept.
import { untrack } from 'svelte'

/** Call during a form component's setup, with its saved values, how they become drafts, and its drafts. */
export function followSaved<T, D>(saved: () => T, toDrafts: (saved: T) => D, drafts: () => D, setDrafts: (next: D) => void): void {
  let base = untrack(saved)
  $effect(() => {
    const next = saved()
    untrack(() => {
      const unedited = JSON.stringify(drafts()) === JSON.stringify(toDrafts(base))
      if (next !== base && unedited) setDrafts(toDrafts(next))
      base = next
    })
  })
}
