// The charts' translucent fills from whatever colour the page resolved: the theme's hex fallbacks,
// rgb() from a CSS variable, rgba() from a system colour under forced colours (Highlight is 0.8).
import { describe, expect, it } from 'vitest'
import { withAlpha } from '../../src/renderer/src/components/session/chart-options'

describe('withAlpha', () => {
  const table: [string, string][] = [
    ['#6ea8ff', '#6ea8ff1f'],
    ['rgb(110, 168, 255)', 'rgba(110, 168, 255, 0.12)'],
    ['rgba(0, 230, 255, 0.8)', 'rgba(0, 230, 255, 0.096)'],
    ['rgba(0, 230, 255, 0)', 'rgba(0, 230, 255, 0)'],
    ['Highlight', 'Highlight']
  ]
  for (const [colour, expected] of table) it(`${colour} → ${expected}`, () => expect(withAlpha(colour, 0.12)).toBe(expected))
})
