// Draws the tray icons into resources/tray/: one shape per state, so the state reads without
// colour (colour-blind operators, monochrome macOS menu bars). Run: node scripts/make-tray-icons.js
// Plain Node (zlib for PNG's deflate): no image package needed for five small shapes.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { deflateSync } from 'node:zlib'

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'tray')

// ---------------------------------------------------------------------------------------------
// Shapes, in a unit square (x right, y down). Each is "is this point ink?".

const circle = (cx, cy, r) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r
const rect = (x0, y0, x1, y1) => (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1
const union = (...shapes) => (x, y) => shapes.some((s) => s(x, y))
const minus = (shape, ...holes) => (x, y) => shape(x, y) && !holes.some((h) => h(x, y))
const intersect = (...shapes) => (x, y) => shapes.every((s) => s(x, y))

/** Convex polygon (clockwise in screen space), as the intersection of its edges' half-planes. */
const polygon = (points) => (x, y) =>
  points.every(([ax, ay], i) => {
    const [bx, by] = points[(i + 1) % points.length]
    return (bx - ax) * (y - ay) - (by - ay) * (x - ax) >= 0
  })

/** A band of half-width `w` around the segment a–b. */
const segment = (ax, ay, bx, by, w) => (x, y) => {
  const dx = bx - ax
  const dy = by - ay
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
  return (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= w * w
}

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

// ---------------------------------------------------------------------------------------------
// Rasterising (4×4 supersampling for smooth edges) and PNG encoding.

function rasterise(shape, size, [r, g, b]) {
  const samples = 4
  const pixels = Buffer.alloc(size * size * 4)
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let hits = 0
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          if (shape((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size)) hits++
        }
      }
      const i = (py * size + px) * 4
      pixels[i] = r
      pixels[i + 1] = g
      pixels[i + 2] = b
      pixels[i + 3] = Math.round((255 * hits) / (samples * samples))
    }
  }
  return pixels
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(buffer) {
  let c = 0xffffffff
  for (const byte of buffer) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type, data) {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body))
  return Buffer.concat([length, body, crc])
}

function png(size, rgba) {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(size, 0)
  header.writeUInt32BE(size, 4)
  header[8] = 8 // bit depth
  header[9] = 6 // RGBA
  // Each row starts with filter type 0 (none).
  const rows = Buffer.alloc(size * (size * 4 + 1))
  for (let y = 0; y < size; y++) rgba.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4)
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0))
  ])
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
