// Draws the application icon, resources/icon.png (1024×1024), from which electron-builder makes
// the macOS .icns, the Windows .ico and the Linux icon set. Run: node scripts/make-app-icon.js
// An eye over a pulse line, in the UI's accent on its dark background: a monitor that watches
// live events. Plain Node (scripts/lib/png.js), no image package.
import { writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { circle, intersect, minus, paint, png, polyline, roundedRect } from './lib/png.js'

const SIZE = 1024
const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'icon.png')

// The UI's dark theme (src/renderer/src/app.css: --bg, --accent).
const BACKGROUND = [15, 17, 21]
const RIM = [40, 46, 58]
const ACCENT = [110, 168, 255]
const HIGHLIGHT = [235, 242, 255]

// macOS's icon grid: the tile fills 824 of 1024 px, so the icon sits with its neighbours'.
const inset = 100 / 1024
const tile = roundedRect(inset, inset, 1 - inset, 1 - inset, 185 / 1024)
const rim = 10 / 1024
const tileInside = roundedRect(inset + rim, inset + rim, 1 - inset - rim, 1 - inset - rim, 185 / 1024 - rim)

/** An eye's outline: the lens two circles share, centred at (0.5, cy), `w` wide and `h` tall. */
function lens(cy, w, h) {
  // Circles of radius R whose centres are d above and below cy: R - d = h/2, R² - d² = (w/2)².
  const sum = (w / 2) ** 2 / (h / 2)
  const radius = (sum + h / 2) / 2
  const d = (sum - h / 2) / 2
  return { radius, d, shape: intersect(circle(0.5, cy - d, radius), circle(0.5, cy + d, radius)) }
}

const eyeY = 0.42
const outer = lens(eyeY, 0.62, 0.36)
const stroke = 0.035
const inner = intersect(circle(0.5, eyeY - outer.d, outer.radius - stroke), circle(0.5, eyeY + outer.d, outer.radius - stroke))
const eyeOutline = minus(outer.shape, inner)
const iris = circle(0.5, eyeY, 0.105)
const pupil = circle(0.5, eyeY, 0.048)
const glint = circle(0.535, eyeY - 0.035, 0.02)

// A heartbeat trace under the eye: the stream's pulse.
const pulse = polyline(
  [
    [0.24, 0.715],
    [0.4, 0.715],
    [0.44, 0.655],
    [0.49, 0.78],
    [0.54, 0.67],
    [0.57, 0.715],
    [0.76, 0.715]
  ],
  0.02
)

const layers = [
  { shape: tile, colour: RIM },
  { shape: tileInside, colour: BACKGROUND },
  { shape: eyeOutline, colour: ACCENT },
  { shape: iris, colour: ACCENT },
  { shape: pupil, colour: BACKGROUND },
  { shape: glint, colour: HIGHLIGHT },
  { shape: pulse, colour: ACCENT }
]

writeFileSync(file, png(SIZE, paint(SIZE, layers)))
console.log(`app icon written to ${file}`)
