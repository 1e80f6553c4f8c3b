// The poll requests concern (docs/scaling-plan.md section 2, "Requests that reach into a poller"):
// a server that does not hold a connection's lease asks the holder to run something with its
// poller through a row; the holder claims it, runs it, and answers on the row. A unit that asks
// or answers also notifies (`ew_poll_requests` with the connection's id, `ew_poll_answers` with
// the request's id: store/notify-channels.ts), so the other side hears it at once.
//
// A request runs at most once: it is claimed once, by one server, and never again — a claimer
// that dies mid-request leaves it claimed and unanswered, and its asker's wait says so. One not
// claimed by its deadline (`expires_at`, the database's clock) or withdrawn by its asker is never
// claimed. Times are the database's, as the leases' are.
//
// PostgreSQL only. On SQLite every call is refused, in words: one server per file runs every
// connection's poller itself, and has nobody to ask (sqlite/poll-request-table.ts).

/** What a request asks the holder to do (PollerGroup's methods of the same names). */
export type PollRequestKind = 'refresh' | 'refreshSession' | 'fetchRange' | 'reevaluate'

/** A request to ask. */
export interface NewPollRequest {
  connectionId: string
  kind: PollRequestKind
  /** The kind's arguments, as JSON (an event session id; a range). */
  arguments: unknown
  /** Who asked (the operator's name), for the record; null for the core's own. */
  actor: string | null
  /** The asking server: host:pid:boot-uuid. */
  askedBy: string
  /** How long from now (the database's clock) it may be claimed. */
  deadlineMs: number
}

export interface PollRequest {
  id: number
  connectionId: string
  kind: PollRequestKind
  arguments: unknown
  actor: string | null
  askedBy: string
  /** ms since the epoch, on the database's clock. */
  createdAt: number
  expiresAt: number
  /** The server that took it to run: null until one does. */
  claimedBy: string | null
  answeredAt: number | null
  /** What it answered: the kind's result as JSON; null when it failed (or has not answered). */
  answer: unknown
  /** Why it failed (the holder's words, or the asker's when it withdrew it); null otherwise. */
  error: string | null
}

/** How a request ended: its answer, or why it failed, in one sentence. */
export type PollOutcome = { answer: unknown } | { error: string }

export interface PollRequestReads {
  /** The request as it is now; null when there is none (its connection removed, or forgotten). */
  get(id: number): Promise<PollRequest | null>
}

export interface PollRequestStore extends PollRequestReads {
  /** Records a request, unclaimed; its id. The unit notifies the holder (`ew_poll_requests`). */
  ask(request: NewPollRequest): Promise<number>
  /**
   * Claims for `holder` every request of the connection that nobody has claimed, answered or let
   * run out, oldest first, and returns them: each is claimed once, by one server (rows another
   * server's claim has locked are skipped). Fence the unit with the connection's lease, so that
   * only its holder claims.
   */
  claim(connectionId: string, holder: string): Promise<PollRequest[]>
  /** Answers a request `holder` claimed; false when it is not its, or answered already. The unit
   *  notifies the asker (`ew_poll_answers`). */
  answer(id: number, holder: string, outcome: PollOutcome): Promise<boolean>
  /** The asker gives up waiting: a request nobody has claimed is answered with `why` and never
   *  runs (true); false when it was claimed, answered already, or is gone. */
  withdraw(id: number, why: string): Promise<boolean>
}
