// Wrong guesses at a credential (a sign-in token, a Bearer token, a session cookie), counted per
// client network and over the whole server. Only wrong guesses are counted, and only they wait:
// a right token is checked first and always gets in (users' tokens carry 256 bits, so checking
// one is a hash and a lookup), so a bad client behind the same NAT or proxy cannot lock a team
// out. What the limit buys is an answer that says "stop" (429 with Retry-After) to a client that
// keeps trying, from one address or from many.
import { clientNetwork } from './client-network'

export interface GuessBudget {
  /** Wrong guesses answered at once (a full bucket). */
  burst: number
  /** Then one more every this many milliseconds. */
  refillMs: number
}

/** One address: 10 wrong tokens, then one every 90 s (10 in 15 minutes). */
export const PER_ADDRESS: GuessBudget = { burst: 10, refillMs: 90_000 }
/** The whole server, against a guesser spread over many addresses: 100, then one a second. */
export const OVERALL: GuessBudget = { burst: 100, refillMs: 1_000 }
/** Networks remembered at most; past that the one that guessed least recently is forgotten (the
 *  overall budget still holds for whoever escapes this way). */
export const MAX_NETWORKS = 10_000

export interface GuessLimits {
  perAddress: GuessBudget
  overall: GuessBudget
  maxNetworks: number
}

/** Refused: how long until the next wrong guess is answered, and whose guesses used the budget. */
export interface GuessRefusal {
  waitSeconds: number
  scope: 'address' | 'server'
}

interface Bucket {
  tokens: number
  at: number
}

export class GuessLimiter {
  private readonly networks = new Map<string, Bucket>()
  private overall: Bucket
  private readonly limits: GuessLimits

  constructor(
    private readonly clock: () => number = Date.now,
    limits: Partial<GuessLimits> = {}
  ) {
    this.limits = { perAddress: PER_ADDRESS, overall: OVERALL, maxNetworks: MAX_NETWORKS, ...limits }
    this.overall = { tokens: this.limits.overall.burst, at: this.clock() }
  }

  /** Counts a wrong guess from `address`: null when it may be answered as wrong (401), or the wait
   *  to send with a 429 when the address, or the server as a whole, has had too many. */
  wrongGuess(address: string | undefined): GuessRefusal | null {
    const now = this.clock()
    const key = clientNetwork(address)
    const mine = this.refilled(this.networks.get(key), this.limits.perAddress, now)
    this.overall = this.refilled(this.overall, this.limits.overall, now)
    // Most recently guessing last: the map's first entry is the one to forget.
    this.networks.delete(key)
    this.networks.set(key, mine)
    if (this.networks.size > this.limits.maxNetworks) this.networks.delete(this.networks.keys().next().value as string)
    if (mine.tokens < 1) return { waitSeconds: waitSeconds(mine, this.limits.perAddress, now), scope: 'address' }
    if (this.overall.tokens < 1) return { waitSeconds: waitSeconds(this.overall, this.limits.overall, now), scope: 'server' }
    mine.tokens -= 1
    this.overall.tokens -= 1
    return null
  }

  /** Networks remembered now (bounded by maxNetworks). */
  get size(): number {
    return this.networks.size
  }

  private refilled(bucket: Bucket | undefined, budget: GuessBudget, now: number): Bucket {
    if (!bucket) return { tokens: budget.burst, at: now }
    const earned = Math.floor((now - bucket.at) / budget.refillMs)
    if (earned <= 0) return bucket
    const tokens = Math.min(budget.burst, bucket.tokens + earned)
    // A full bucket starts counting afresh; otherwise the part of an interval already waited counts.
    return { tokens, at: tokens === budget.burst ? now : bucket.at + earned * budget.refillMs }
  }
}

const waitSeconds = (bucket: Bucket, budget: GuessBudget, now: number): number =>
  Math.max(1, Math.ceil((bucket.at + budget.refillMs - now) / 1000))
