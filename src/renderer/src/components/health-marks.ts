// How a health the core decided reads as text: an icon and a word, never colour alone.
import type { Health } from '../../../shared/reliability'

/** The health badge's icon and word (live table, wall). */
export const HEALTH_ICON: Record<Health, string> = { good: '✓', warning: '▲', critical: '✖', unknown: '?' }
export const HEALTH_WORD: Record<Health, string> = { good: 'Good', warning: 'Warning', critical: 'Critical', unknown: 'Unknown' }
/** The same, when the data shown is not current: what the last poll said. */
export const OUTDATED_HEALTH_WORD: Record<Health, string> = { good: 'Was good', warning: 'Was warning', critical: 'Was critical', unknown: 'Unknown' }

/** The mark beside a reliability figure in a table or the session header (before the lower-case level). */
export const HEALTH_MARK: Record<Health, string> = { good: '●', warning: '▲', critical: '✖', unknown: '?' }
