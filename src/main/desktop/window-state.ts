// The main window where the operator left it (issue 15): size, position, maximized, kept in
// window-state.json in the user data folder and restored at the next start. A display that is
// gone (the laptop off its dock, a wall screen unplugged) must not put the window off screen:
// then it opens on the primary display, at its saved size if that fits there.
import { readFileSync, writeFileSync } from 'node:fs'
import { z } from 'zod'

const BoundsSchema = z.object({ x: z.number().int(), y: z.number().int(), width: z.number().int().min(1), height: z.number().int().min(1) })
export type Bounds = z.infer<typeof BoundsSchema>

export const WindowStateSchema = z.object({ bounds: BoundsSchema, maximized: z.boolean() })
export type WindowState = z.infer<typeof WindowStateSchema>

/** A display's usable area (without task bars), as Electron's screen gives it. */
export interface DisplayArea {
  workArea: Bounds
}

/** A window shows less than this much of itself on any display: it is treated as off screen. */
const MIN_VISIBLE_PX = 100

function overlap(a: Bounds, b: Bounds): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)
  return w > 0 && h > 0 ? Math.min(w, h) : 0
}

/**
 * Where to open the window: the saved bounds when enough of them is on a display still there,
 * else centred on the primary display (the saved size, shrunk to fit); undefined when nothing
 * was saved (Electron's default placement).
 */
export function placeWindow(saved: WindowState | undefined, displays: readonly DisplayArea[], primary: DisplayArea): WindowState | undefined {
  if (!saved) return undefined
  if (displays.some((d) => overlap(saved.bounds, d.workArea) >= MIN_VISIBLE_PX)) return saved
  const area = primary.workArea
  const width = Math.min(saved.bounds.width, area.width)
  const height = Math.min(saved.bounds.height, area.height)
  return {
    bounds: { x: area.x + Math.round((area.width - width) / 2), y: area.y + Math.round((area.height - height) / 2), width, height },
    maximized: saved.maximized
  }
}

/** The saved state; undefined when there is none or it cannot be read (a first start, a bad file). */
export function readWindowState(file: string): WindowState | undefined {
  try {
    const parsed = WindowStateSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : undefined
  } catch {
    return undefined
  }
}

/** Saves the state; a disk that refuses costs only the remembered position, never the app. */
export function writeWindowState(file: string, state: WindowState): boolean {
  try {
    writeFileSync(file, JSON.stringify(state))
    return true
  } catch {
    return false
  }
}
