// Draws the tray icons into resources/tray/: one shape per state, so the state reads without
// colour (colour-blind operators, monochrome macOS menu bars). Run: node scripts/make-tray-icons.js
// Plain Node (scripts/lib/png.js): no image package needed for five small shapes.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { circle, intersect, minus, png, polygon, rasterise, rect, segment, union } from './lib/png.js'

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'tray')

// ---------------------------------------------------------------------------------------------
// Shapes, in a unit square (x right, y down); the primitives are in lib/png.js.

const octagon = (() => {
  const r = 0.48
  return polygon(
    Array.from({ length: 8 }, (_, i) => {
      const a = (Math.PI / 8) * (2 * i + 1) - Math.PI / 2
      return [0.5 + r * Math.cos(a), 0.5 + r * Math.sin(a)]
    })
  )
})()

// An eye: two circles' lens with the pupil cut out.
const eye = (() => {
  const d = 0.2
  const r = 0.5
  return minus(intersect(circle(0.5, 0.5 - d, r), circle(0.5, 0.5 + d, r)), circle(0.5, 0.5, 0.14))
})()

const SHAPES = {
  // A plain filled disc: all is well.
  ok: circle(0.5, 0.5, 0.42),
  // A warning triangle with an exclamation mark cut out.
  warning: minus(
    polygon([
      [0.5, 0.04],
      [0.98, 0.9375],
      [0.02, 0.9375]
    ]),
    // Edges on whole pixels at 16 px, so the mark stays crisp.
    rect(0.4375, 0.3125, 0.5625, 0.625),
    rect(0.4375, 0.6875, 0.5625, 0.8125)
  ),
  // A stop sign: an octagon with a bar cut across it.
  critical: minus(octagon, rect(0.1875, 0.375, 0.8125, 0.625)),
  // The monitor cannot see: an eye struck through (with a gap either side of the stroke).
  blind: union(minus(eye, segment(0.06, 0.94, 0.94, 0.06, 0.12)), segment(0.1, 0.9, 0.9, 0.1, 0.06)),
  // Two pause bars.
  paused: union(rect(0.1875, 0.125, 0.4375, 0.875), rect(0.5625, 0.125, 0.8125, 0.875))
}

// Colour only adds to the shape; on macOS the template (black + alpha) versions are used.
const COLOURS = {
  ok: [46, 158, 79],
  warning: [232, 163, 23],
  critical: [217, 48, 37],
  blind: [140, 147, 157],
  paused: [74, 127, 214]
}

mkdirSync(out, { recursive: true })
for (const [state, shape] of Object.entries(SHAPES)) {
  for (const [suffix, size] of [
    ['', 16],
    ['@2x', 32]
  ]) {
    writeFileSync(join(out, `tray-${state}${suffix}.png`), png(size, rasterise(shape, size, COLOURS[state])))
    // Electron marks a file whose name ends in "Template" as a macOS template image.
    writeFileSync(join(out, `tray-${state}Template${suffix}.png`), png(size, rasterise(shape, size, [0, 0, 0])))
  }
}
console.log(`tray icons written to ${out}`)
