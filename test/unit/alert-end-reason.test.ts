// How an alert ends (core/alerts/end-reason.ts), as a table: what cleared it and what the figure
// behind it reads, in; the kind of end and its words, out. An alert that ends while its session is
// still below a level is never "recovered" (issue 24: "Resolved — recovered" at 41).
import { describe, expect, it } from 'vitest'
import { alertEnd, type EndFacts } from '../../src/main/core/alerts/end-reason'
import { endHeading } from '../../src/shared/alert-end'

const levels = { warning: 95, critical: 90 }

const TABLE: [string, EndFacts, ReturnType<typeof alertEnd>][] = [
  [
    'a falling score back above the levels',
    { cause: 'cleared', rule: 'reliability-falling', score: 97.24, levels, rose: true, windowMinutes: 5 },
    { kind: 'recovered', words: 'recovered: reliability 97.2, above the warning level 95' }
  ],
  [
    'a drop that left its window while the score stays at 41',
    { cause: 'cleared', rule: 'reliability-falling', score: 41.04, levels, rose: false, windowMinutes: 5 },
    { kind: 'no-longer-applies', words: 'no longer falling: the drop left its 5-minute window; reliability is still 41.0, below the critical level 90' }
  ],
  [
    'a drop that left its window while the score sits between the levels',
    { cause: 'cleared', rule: 'reliability-falling', score: 92.5, levels, rose: false, windowMinutes: 10 },
    { kind: 'no-longer-applies', words: 'no longer falling: the drop left its 10-minute window; reliability is still 92.5, below the warning level 95' }
  ],
  [
    'a score that climbed back part of the way',
    { cause: 'cleared', rule: 'reliability-falling', score: 88, levels, rose: true, windowMinutes: 5 },
    { kind: 'no-longer-applies', words: 'no longer falling: reliability climbed back to 88.0 but is still below the critical level 90' }
  ],
  [
    'a drop that left its window above the levels',
    { cause: 'cleared', rule: 'reliability-falling', score: 96, levels, rose: false, windowMinutes: 5 },
    { kind: 'recovered', words: 'recovered: reliability 96.0, above the warning level 95' }
  ],
  [
    'a score back above the warning level (and its margin)',
    { cause: 'cleared', rule: 'reliability-below', score: 96.3, levels, rose: false, windowMinutes: 0 },
    { kind: 'recovered', words: 'recovered: reliability 96.3, above the warning level 95' }
  ],
  [
    'an audience that came back',
    { cause: 'cleared', rule: 'viewers-dropping', viewers: 380, rose: true, windowMinutes: 2 },
    { kind: 'recovered', words: 'recovered: viewers back up to 380' }
  ],
  [
    'a fall of viewers that left its window, the audience still down',
    { cause: 'cleared', rule: 'viewers-dropping', viewers: 160, rose: false, windowMinutes: 2 },
    { kind: 'no-longer-applies', words: 'no longer dropping: the fall left its 2-minute window; still 160 viewers' }
  ],
  [
    'a site back above its level',
    { cause: 'cleared', rule: 'site-reliability', score: 84, viewers: 40, warningBelow: 80, minimumViewers: 20 },
    { kind: 'recovered', words: "recovered: the site's viewers at 84.0, above the site warning level 80" }
  ],
  [
    'a site with too few viewers left to judge, still below',
    { cause: 'cleared', rule: 'site-reliability', score: 31, viewers: 12, warningBelow: 80, minimumViewers: 20 },
    {
      kind: 'no-longer-applies',
      words: "too few viewers left at the site to judge (12, fewer than 20); its viewers still at 31.0, below the site warning level 80"
    }
  ],
  [
    'a site gone from the viewer list',
    { cause: 'cleared', rule: 'site-reliability', score: null, viewers: 0, warningBelow: 80, minimumViewers: 20 },
    { kind: 'no-longer-applies', words: 'no viewer left at the site' }
  ],
  ['the service answering again', { cause: 'cleared', rule: 'monitor-blind' }, { kind: 'recovered', words: 'recovered: the service answers again' }],
  ['its session ended', { cause: 'session-ended' }, { kind: 'session-ended', words: 'session ended' }],
  ['its rule turned off', { cause: 'rule-off' }, { kind: 'rule-off', words: 'rule turned off' }],
  ['its connection removed', { cause: 'unwatched', why: 'connection removed' }, { kind: 'unwatched', words: 'connection removed' }]
]

describe('alertEnd', () => {
  it.each(TABLE)('%s', (_, facts, end) => {
    expect(alertEnd(facts)).toEqual(end)
  })

  it('never calls an end recovered while the score is below a level, whatever cleared the rule', () => {
    for (let score = 0; score <= 100; score += 0.5) {
      for (const rule of ['reliability-below', 'reliability-falling'] as const) {
        for (const rose of [true, false]) {
          const end = alertEnd({ cause: 'cleared', rule, score, levels, rose, windowMinutes: 5 })
          expect([score, end.kind === 'recovered']).toEqual([score, score >= levels.warning])
          if (score < levels.warning) expect(end.words).not.toMatch(/recovered/)
        }
      }
    }
  })

  it('leads with "Resolved" only for a recovery; every other end reads "Ended"', () => {
    expect(endHeading('recovered')).toEqual({ word: 'Resolved', icon: '✓' })
    for (const kind of ['no-longer-applies', 'session-ended', 'rule-off', 'unwatched'] as const) expect(endHeading(kind)).toEqual({ word: 'Ended', icon: '■' })
  })
})
