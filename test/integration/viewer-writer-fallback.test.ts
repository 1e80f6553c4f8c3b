// Should the cache writer's thread fail to start (here: a native binding it cannot load, as a
// runtime without its worker file or binding would), viewer lists go on being stored on this
// thread, and the reason is said once.
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { viewerStoreWithFallback } from '../../src/main/core/store/viewer-store-fallback'
import { inThreadViewerStore } from '../../src/main/core/store/viewer-store'
import { seededCache } from '../support/seeded-cache'

const T0 = Date.parse('2026-03-02T09:00:00Z')
const cleanups: (() => Promise<void> | void)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})


it('stores viewer lists on this thread once the writer cannot start, and says why once', async () => {
  const { db, file } = seededCache(cleanups, ['s1'], T0)
  const reasons: string[] = []
  const store = viewerStoreWithFallback({ file, nativeBinding: join(tmpdir(), 'no-such-binding.node') }, () => inThreadViewerStore(db), (reason) => reasons.push(reason))
  cleanups.push(() => store.close())
  // Wait for the writer to fail (its thread reports at start).
  for (let i = 0; i < 200 && reasons.length === 0; i++) await new Promise((r) => setTimeout(r, 25))
  expect(reasons).toHaveLength(1)
  expect(reasons[0]).toMatch(/^the cache writer stopped: .+/)
  await store.store('A', 's1', [{ viewerId: 'v1' }, { viewerId: 'v2' }], T0, 1)
  expect(db.prepare('SELECT viewer_count AS n FROM viewer_lists WHERE staged_at IS NULL').get()).toEqual({ n: 2 })
  expect(reasons).toHaveLength(1)
})
