// How `store copy` fails, in words: a refusal before anything is written (the source or the target
// is not one the copy takes: exit 2, fix the command line), or a copy that stopped part way, rolled
// back, with the table and rows where it stopped (the target is left as it was: empty).

/** The source or the target is not one the copy takes; nothing was written anywhere. */
export class CopyRefusedError extends Error {
  readonly kind = 'configuration'
  constructor(message: string) {
    super(message)
    this.name = 'CopyRefusedError'
  }
}

/** PostgreSQL refused a row of the cache (or the counts did not agree); the copy was rolled back. */
export class CopyFailedError extends Error {
  readonly kind = 'storage'
  constructor(message: string) {
    super(message)
    this.name = 'CopyFailedError'
  }
}

/** A name as SQL quotes it (both dialects): table and column names come from the files' schemas. */
export const quoted = (name: string): string => `"${name.replace(/"/g, '""')}"`
