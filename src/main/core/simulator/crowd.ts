// A crowd: a live session of millions of viewers that the simulator never holds. Each viewer is
// made from its position alone when a page is listed, the same every time, so a test of a list
// of 5,000,000 viewers costs the simulator a page of memory.
import { createRandom } from './random'
import type { SimSession } from './world'
import { createViewer, type SimViewer } from './viewers'

/** The crowd's viewer at `seq` (0-based): joined within the first half hour, still watching. */
export function crowdViewer(seed: number, session: SimSession, seq: number): SimViewer {
  const random = createRandom((seed * 1_000_003 + seq) >>> 0)
  const viewer = createViewer(random, seq, session.startedAt + (seq % 1800) * 1000, session.siteBias)
  // Unique by construction, and visibly a crowd's.
  viewer.viewerId = `00000000-0000-4000-8000-${seq.toString(16).padStart(12, '0')}`
  return viewer
}

/** The viewers after `afterSeq`, at most `size` of them. */
export function crowdPage(seed: number, session: SimSession, afterSeq: number, size: number): SimViewer[] {
  const total = session.crowd ?? 0
  const page: SimViewer[] = []
  for (let seq = afterSeq + 1; seq < total && page.length < size; seq++) page.push(crowdViewer(seed, session, seq))
  return page
}
