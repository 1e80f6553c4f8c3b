// What a unit of work yields for the judgement after it (app/monitor.ts): the sessions of its
// connection whose record, snapshot or viewer list it stored. The judgement reads and judges
// those alone, so a poll that touched one session of a hundred costs one session. A change that
// concerns every session (the first judgement, the clock finding something due, an operator's
// rule or levels) judges `everySession()`.
export class TouchedSessions {
  private readonly ids = new Set<string>()
  private every = false

  /** Every session of the connection: nothing can be left out. */
  static everySession(): TouchedSessions {
    const touched = new TouchedSessions()
    touched.every = true
    return touched
  }

  /** Whether this stands for every session of the connection. */
  get all(): boolean {
    return this.every
  }

  add(eventSessionId: string): this {
    if (!this.every) this.ids.add(eventSessionId)
    return this
  }

  addAll(eventSessionIds: Iterable<string>): this {
    for (const id of eventSessionIds) this.add(id)
    return this
  }

  has(eventSessionId: string): boolean {
    return this.every || this.ids.has(eventSessionId)
  }

  /** These and `other`'s, as one (what an earlier judgement left owed, with a new unit's). */
  with(other: TouchedSessions): TouchedSessions {
    if (this.every || other.every) return TouchedSessions.everySession()
    return new TouchedSessions().addAll(this.ids).addAll(other.ids)
  }
}
