import { describe, expect, it } from 'vitest'
import { trafficRates } from '../../src/renderer/src/components/session/traffic-rate'

const at = (seconds: number, cdn: number, ecdn: number) => ({ takenAt: seconds * 1000, cdnTraffic: cdn, ecdnTraffic: ecdn })

describe('trafficRates', () => {
  it('gives the per-second rate between consecutive cumulative totals, none for the first point', () => {
    const rates = trafficRates([at(0, 0, 0), at(10, 1000, 5000), at(30, 3000, 5000)])
    expect(rates.cdn).toEqual([null, 100, 100])
    expect(rates.ecdn).toEqual([null, 500, 0])
  })

  it('leaves a gap where a counter went down (a reset) rather than a negative rate', () => {
    const rates = trafficRates([at(0, 5000, 100), at(10, 200, 300), at(20, 1200, 400)])
    expect(rates.cdn).toEqual([null, null, 100])
    expect(rates.ecdn).toEqual([null, 20, 10])
  })

  it('leaves a gap where two points share an instant or go back in time', () => {
    const rates = trafficRates([at(10, 0, 0), at(10, 100, 100), at(5, 200, 200)])
    expect(rates.cdn).toEqual([null, null, null])
  })

  it('converts to bytes with the unit in use', () => {
    const rates = trafficRates([at(0, 0, 0), at(2, 4, 2)], (v) => v * 1000)
    expect(rates.cdn).toEqual([null, 2000])
    expect(rates.ecdn).toEqual([null, 1000])
  })

  it('handles no points and one point', () => {
    expect(trafficRates([])).toEqual({ cdn: [], ecdn: [] })
    expect(trafficRates([at(0, 1, 1)])).toEqual({ cdn: [null], ecdn: [null] })
  })
})
