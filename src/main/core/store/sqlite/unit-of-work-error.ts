// A unit of work used against its rules (docs/store.md): the error names which rule.
export class UnitOfWorkError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'UnitOfWorkError'
  }
}

export const unitEnded = (): UnitOfWorkError =>
  new UnitOfWorkError('this unit of work has ended (committed or rolled back): its tx cannot be used any more')

export const readOnlyUnit = (): UnitOfWorkError => new UnitOfWorkError('a read-only unit of work cannot write: open it without readOnly')

export const notInUnit = (): UnitOfWorkError => new UnitOfWorkError('store.read only reads: write inside store.withTransaction')

export const nestedUnit = (): UnitOfWorkError =>
  new UnitOfWorkError('a unit of work cannot open another (it would wait for itself): pass its tx down instead')

export const awaitedElsewhere = (): UnitOfWorkError =>
  new UnitOfWorkError(
    'a unit of work awaited something other than its tx (a timer, the network, another store): it was rolled back, ' +
      'because on SQLite it holds the cache’s write lock until it ends; do that work before or after the unit'
  )

export const storeClosed = (): UnitOfWorkError => new UnitOfWorkError('the store is closed')

export const fencedOnSqlite = (): UnitOfWorkError =>
  new UnitOfWorkError(
    'a unit of work fenced with a lease cannot run on a SQLite cache: it has no leases (one server per file polls every ' +
      'connection), so the fence could not be checked; run it without a fence, or on PostgreSQL'
  )

export const fencedReadOnly = (): UnitOfWorkError =>
  new UnitOfWorkError('a read-only unit of work writes nothing and takes no fence: open it without one, or without readOnly')
