// How a reliability level (display.health) reads as text: an icon and a word, never colour alone.
import type { Health } from '../../../shared/format'

type Level = Health | 'unknown'

/** The health badge's icon and word (live table, wall). */
export const HEALTH_ICON: Record<Level, string> = { good: '✓', warning: '▲', critical: '✖', unknown: '?' }
export const HEALTH_WORD: Record<Level, string> = { good: 'Good', warning: 'Warning', critical: 'Critical', unknown: 'Unknown' }

/** The mark beside a reliability figure in a table or the session header (before the lower-case level). */
export const HEALTH_MARK: Record<Level, string> = { good: '●', warning: '▲', critical: '✖', unknown: '?' }
