// viewer-loader.svelte.ts: the viewer table's pages under a sort and a filter. Issue 14: a filter
// that matched nothing, once cleared, left "No viewer matches this filter" on screen for good.
import { describe, expect, it } from 'vitest'
import { ViewerLoader } from '../../../src/renderer/src/components/session/viewer-loader.svelte'
import type { ViewerRow } from '../../../src/shared/screens'
import { ok } from '../../../src/shared/result'
import { FakeClient } from './fake-client'

const key = { connectionId: 'c1', eventSessionId: 's1' }
const FETCHED_AT = '2026-11-20T10:00:00.000Z'
const row = (viewerId: string) => ({ viewerId }) as ViewerRow

/** A cached list of `count` viewers v0…; the text filter keeps the ids that contain it. */
function pastSessionList(count: number): FakeClient {
  const all = Array.from({ length: count }, (_, i) => row(`v${i}`))
  return new FakeClient().answer('viewerPage', ({ filter, limit = 100, offset = 0 }) => {
    const matching = filter?.text ? all.filter((r) => r.viewerId.includes(filter.text as string)) : all
    return ok({ rows: matching.slice(offset, offset + limit), total: matching.length, fetchedAt: FETCHED_AT })
  })
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('ViewerLoader', () => {
  it('a filter that matched nothing, once cleared, shows the whole list again', async () => {
    const loader = new ViewerLoader(pastSessionList(300), key)
    loader.ensure(0, 20)
    await settled()
    expect(loader.total).toBe(300)

    loader.setText('no such viewer')
    await settled()
    expect(loader.total).toBe(0)
    expect(loader.row(0)).toBeUndefined()

    loader.setText('')
    await settled()
    expect(loader.total).toBe(300)
    expect(loader.row(0)?.viewerId).toBe('v0')
  })

  it('after a filter narrows the list, the rows on screen past the first page are fetched once the total is known', async () => {
    const client = pastSessionList(600)
    const loader = new ViewerLoader(client, key)
    loader.ensure(0, 20)
    await settled()
    loader.setText('v5') // v5, v50…v59, v500…v599: 111 viewers
    await settled()
    expect(loader.total).toBe(111)
    loader.setText('')
    await settled()
    loader.ensure(240, 270) // the screen straddles pages 0 and 250
    await settled()
    expect(loader.row(260)?.viewerId).toBe('v260')
    const offsets = client.argsOf('viewerPage').filter((a) => a.filter === undefined).map((a) => a.offset)
    expect(offsets).toEqual([0, 0, 250])
  })

  it('"still watching" asks the core for those viewers only, on top of the text filter, and back', async () => {
    const client = pastSessionList(10)
    const loader = new ViewerLoader(client, key)
    loader.ensure(0, 5)
    await settled()
    loader.setText('v1')
    loader.setWatching(true)
    await settled()
    loader.setWatching(false)
    await settled()
    expect(client.argsOf('viewerPage').map((a) => a.filter)).toEqual([undefined, { text: 'v1' }, { watching: true, text: 'v1' }, { text: 'v1' }])
  })
})
