// How every face (the renderer's stores, the desktop's tray and live rows) weighs what the core
// says against what it holds: the one rule, decided here and nowhere else.
//
// The board and the alert situation carry a revision that grows with every push, and the epoch
// it counts in: an id the core draws when it starts (a server restart, a rebuilt board), or that
// a team client draws for words of its own (the server is offline). Revisions compare only within
// one epoch. A new epoch means "take the next snapshot whole", whatever its revision: a restarted
// server counts from 0 again, and its board is not stale for that.
import { z } from 'zod'

/** The epoch a revision counts in: an opaque id, compared for equality only. */
export const EpochSchema = z.string().min(1).max(200)

export interface Revised {
  readonly epoch: string
  readonly revision: number
}

/** Only the count of a board or situation: what a face keeps to weigh the next word against. */
export const stampOf = (word: Revised): Revised => ({ epoch: word.epoch, revision: word.revision })

/** How a word stands to what a face holds. */
export type Standing = 'new-epoch' | 'newer' | 'same' | 'older'

/** Where `next` stands to `held` (holding nothing: a new epoch, taken whole). */
export function standingOf(held: Revised | null | undefined, next: Revised): Standing {
  if (!held || held.epoch !== next.epoch) return 'new-epoch'
  if (next.revision > held.revision) return 'newer'
  return next.revision === held.revision ? 'same' : 'older'
}

/** A push is taken when it is newer than what is held, or of a new epoch; a repeat is not. */
export const takesPush = (held: Revised | null | undefined, next: Revised): boolean => {
  const standing = standingOf(held, next)
  return standing === 'newer' || standing === 'new-epoch'
}

/** An answer is taken unless it is older: it may repeat the revision of the push its request caused. */
export const takesAnswer = (held: Revised | null | undefined, next: Revised): boolean => standingOf(held, next) !== 'older'

/** What a face does with a board push (a diff): apply it; ignore it (no newer); or read the board
 *  whole again, because it is of a new epoch or pushes were missed between the two. */
export function boardPushStep(held: Revised | null | undefined, next: Revised): 'apply' | 'ignore' | 'reread' {
  const standing = standingOf(held, next)
  if (standing === 'new-epoch') return 'reread'
  if (standing !== 'newer') return 'ignore'
  return next.revision === held!.revision + 1 ? 'apply' : 'reread'
}
