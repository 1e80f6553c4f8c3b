// Things said to the operator once ("Eventwatch keeps running in the tray"), remembered in a
// small JSON file under userData. A missing or damaged file only means a hint is shown again.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

export interface OneTimeHints {
  seen(key: string): boolean
  markSeen(key: string): void
}

function readSeen(file: string): Record<string, true> {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch {
    return {} // first run
  }
  try {
    const parsed: unknown = JSON.parse(text)
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v === true)) as Record<string, true>
    }
  } catch {
    // fall through
  }
  console.error(`eventwatch: ignoring an unreadable hints file: ${file}`)
  return {}
}

export function oneTimeHints(file: string): OneTimeHints {
  const seen = readSeen(file)
  return {
    seen: (key) => seen[key] === true,
    markSeen(key) {
      seen[key] = true
      try {
        mkdirSync(dirname(file), { recursive: true })
        // Write then rename: a crash mid-write leaves the old file, not half a new one.
        const temporary = `${file}.tmp`
        writeFileSync(temporary, `${JSON.stringify(seen, null, 2)}\n`)
        renameSync(temporary, file)
      } catch (error) {
        // Remembered for this run at least; the hint may come back after a restart.
        console.error('eventwatch: could not remember a hint', error)
      }
    }
  }
}
