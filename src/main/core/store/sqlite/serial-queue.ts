// Units of work on one connection, one after another: better-sqlite3 has one transaction per
// connection, so a second BEGIN while a unit is open would fail (or, as a savepoint, join it).
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve()

  /** Starts `task` once every task queued before it has settled; its own outcome is passed on. */
  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task)
    this.tail = result.then(
      () => undefined,
      () => undefined
    )
    return result
  }

  /** Settles when every task queued so far has. */
  async idle(): Promise<void> {
    await this.tail
  }
}
