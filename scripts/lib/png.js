// Drawing small PNGs in plain Node (zlib for PNG's deflate), shared by the icon scripts
// (make-tray-icons.js, make-app-icon.js): shapes as "is this point ink?" functions in a unit
// square (x right, y down), supersampled rasterising, and an 8-bit RGBA PNG encoder.
import { deflateSync } from 'node:zlib'

// ---------------------------------------------------------------------------------------------
// Shapes

export const circle = (cx, cy, r) => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r
export const rect = (x0, y0, x1, y1) => (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1
export const union = (...shapes) => (x, y) => shapes.some((s) => s(x, y))
export const minus = (shape, ...holes) => (x, y) => shape(x, y) && !holes.some((h) => h(x, y))
export const intersect = (...shapes) => (x, y) => shapes.every((s) => s(x, y))

/** Convex polygon (clockwise in screen space), as the intersection of its edges' half-planes. */
export const polygon = (points) => (x, y) =>
  points.every(([ax, ay], i) => {
    const [bx, by] = points[(i + 1) % points.length]
    return (bx - ax) * (y - ay) - (by - ay) * (x - ax) >= 0
  })

/** A band of half-width `w` around the segment a–b. */
export const segment = (ax, ay, bx, by, w) => (x, y) => {
  const dx = bx - ax
  const dy = by - ay
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
  return (x - ax - t * dx) ** 2 + (y - ay - t * dy) ** 2 <= w * w
}

/** A band of half-width `w` along a polyline (round joins and ends). */
export const polyline = (points, w) =>
  union(...points.slice(1).map(([bx, by], i) => segment(points[i][0], points[i][1], bx, by, w)))

/** A rectangle with corners rounded to radius `r`. */
export const roundedRect = (x0, y0, x1, y1, r) => (x, y) => {
  const dx = Math.max(x0 + r - x, 0, x - (x1 - r))
  const dy = Math.max(y0 + r - y, 0, y - (y1 - r))
  return x >= x0 && x <= x1 && y >= y0 && y <= y1 && dx * dx + dy * dy <= r * r
}

// ---------------------------------------------------------------------------------------------
// Rasterising (4×4 supersampling for smooth edges)

const SAMPLES = 4

/** How much of pixel (px, py) the shape covers, 0..1. */
function coverage(shape, size, px, py) {
  let hits = 0
  for (let sy = 0; sy < SAMPLES; sy++) {
    for (let sx = 0; sx < SAMPLES; sx++) {
      if (shape((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size)) hits++
    }
  }
  return hits / (SAMPLES * SAMPLES)
}

/** One colour, the shape's coverage as alpha (every pixel carries the colour, even where clear). */
export function rasterise(shape, size, [r, g, b]) {
  const pixels = Buffer.alloc(size * size * 4)
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const i = (py * size + px) * 4
      pixels[i] = r
      pixels[i + 1] = g
      pixels[i + 2] = b
      pixels[i + 3] = Math.round(255 * coverage(shape, size, px, py))
    }
  }
  return pixels
}

/** Layers of `{ shape, colour: [r, g, b] }`, painted in order over a transparent canvas. */
export function paint(size, layers) {
  const pixels = Buffer.alloc(size * size * 4)
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      // Premultiplied colour and alpha, composited "source over".
      let [r, g, b, a] = [0, 0, 0, 0]
      for (const { shape, colour } of layers) {
        const c = coverage(shape, size, px, py)
        if (c === 0) continue
        r = colour[0] * c + r * (1 - c)
        g = colour[1] * c + g * (1 - c)
        b = colour[2] * c + b * (1 - c)
        a = c + a * (1 - c)
      }
      const i = (py * size + px) * 4
      if (a > 0) {
        pixels[i] = Math.round(r / a)
        pixels[i + 1] = Math.round(g / a)
        pixels[i + 2] = Math.round(b / a)
      }
      pixels[i + 3] = Math.round(255 * a)
    }
  }
  return pixels
}

// ---------------------------------------------------------------------------------------------
// PNG encoding: 8-bit RGBA, one IDAT, filter 0 on every row

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

/** A square PNG of `size` × `size` from RGBA pixels (row by row). */
export function png(size, rgba) {
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
