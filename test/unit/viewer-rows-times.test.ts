// Times in stored viewer rows: the hand-read canonical form gives exactly what Date.parse gives,
// and every other form (or a date no calendar has) still goes by Date.parse.
import { describe, expect, it } from 'vitest'
import { viewerListRows } from '../../src/main/core/store/viewer-rows'

const STARTED_AT = 10 // the slot of started_at in a viewer row (VIEWER_COLUMNS)

const stored = (startedAt: string): unknown => viewerListRows([{ viewerId: 'v', startedAt }]).viewers[STARTED_AT]
const parsed = (s: string): number | null => (Number.isNaN(Date.parse(s)) ? null : Date.parse(s))

describe('viewer start times as stored', () => {
  it.each([
    '2026-11-23T10:00:00.123Z',
    '2026-11-31T00:00:00.000Z', // rolls over, as Date.parse does
    '2024-02-29T23:59:59.999Z',
    '2026-11-23T24:00:00.000Z',
    '0001-01-01T00:00:00.000Z', // Date.UTC would read year 1 as 1901
    '2026-11-23T10:00:00Z',
    '2026-11-23T10:00:00+02:00'
  ])('%s is the instant Date.parse gives', (time) => {
    expect(stored(time)).toBe(parsed(time))
    expect(stored(time)).not.toBeNull()
  })

  it.each(['2026-11-00T00:00:00.000Z', '2026-13-01T00:00:00.000Z', '2026-1x-01T00:00:00.000Z', '2026-11-23T10:00:00.1x3Z', 'yesterday'])('%s is no instant: null', (time) => {
    expect(stored(time)).toBeNull()
  })
})
