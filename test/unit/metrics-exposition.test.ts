// The Prometheus text format as web/exposition.ts writes it, and the counts core/metrics keeps.
import { describe, expect, it } from 'vitest'
import { CoreMetrics, PUSH_LAG_BUCKETS } from '../../src/main/core/metrics/metrics'
import { exposition } from '../../src/main/web/exposition'

describe('exposition', () => {
  it('escapes label values (backslash, double quote, line feed) and HELP text (backslash, line feed)', () => {
    const text = exposition([
      { name: 'm_total', help: 'a \\ help\nline', type: 'counter', samples: [{ labels: { name: 'a\\b"c"\nd' }, value: 3 }] }
    ])
    expect(text).toBe('# HELP m_total a \\\\ help\\nline\n# TYPE m_total counter\nm_total{name="a\\\\b\\"c\\"\\nd"} 3\n')
  })

  it('writes NaN and infinities as the format spells them, and a family without labels bare', () => {
    const text = exposition([
      { name: 'g', help: 'h', type: 'gauge', samples: [{ labels: {}, value: Number.NaN }, { labels: { a: '1' }, value: Infinity }, { labels: { a: '2' }, value: -Infinity }] }
    ])
    expect(text.split('\n').slice(2, 5)).toEqual(['g NaN', 'g{a="1"} +Inf', 'g{a="2"} -Inf'])
  })
})

describe('core metrics', () => {
  it('counts polls and errors per connection and kind, under its newest name', () => {
    const metrics = new CoreMetrics()
    metrics.pollEnded({ id: 'c1', name: 'Old' }, 'discovery', false)
    metrics.pollEnded({ id: 'c1', name: 'New' }, 'discovery', true)
    metrics.pollEnded({ id: 'c1', name: 'New' }, 'details', false)
    const [polls, errors] = metrics.families()
    expect(polls!.samples).toEqual([
      { labels: { connection_id: 'c1', connection_name: 'New', kind: 'discovery' }, value: 2 },
      { labels: { connection_id: 'c1', connection_name: 'New', kind: 'details' }, value: 1 }
    ])
    expect(errors!.samples.map((s) => s.value)).toEqual([1, 0])
  })

  it('counts a stream once however often it is closed, and buckets each push lag cumulatively', () => {
    const metrics = new CoreMetrics()
    const close = metrics.streamOpened()
    metrics.streamOpened()
    close()
    close()
    const streams = metrics.families().find((f) => f.name === 'eventwatch_event_streams_open')!
    expect(streams.samples[0]!.value).toBe(1)
    metrics.pushed('alertsChanged', 0.003)
    metrics.pushed('alertsChanged', 7)
    const lag = metrics.families().find((f) => f.name === 'eventwatch_push_lag_seconds')!
    const bucket = (le: string): number | undefined => lag.samples.find((s) => s.suffix === '_bucket' && s.labels.le === le)?.value
    expect(bucket('0.001')).toBe(0)
    expect(bucket('0.005')).toBe(1)
    expect(bucket(String(PUSH_LAG_BUCKETS.at(-1)))).toBe(1)
    expect(bucket('+Inf')).toBe(2)
    expect(lag.samples.find((s) => s.suffix === '_count')!.value).toBe(2)
    expect(lag.samples.find((s) => s.suffix === '_sum')!.value).toBeCloseTo(7.003)
  })
})
